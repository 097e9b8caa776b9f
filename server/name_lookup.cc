#include "server/name_lookup.h"

#ifdef DDBD_STATIC
#include <nss.h>
#endif

namespace ddbd {

void UseBuiltInNameLookup() {
#ifdef DDBD_STATIC
  // glibc's own override of nsswitch.conf, meant for static programs.
  __nss_configure_lookup("hosts", "files dns");
#endif
}

}  // namespace ddbd
