// How host names are looked up (ddbd dump/load and `ddbd health` connect to endpoints by name).
#pragma once

namespace ddbd {

// In the static release binary: host names are looked up with glibc's built-in "files" and "dns"
// sources only (/etc/hosts, then the servers in /etc/resolv.conf), whatever /etc/nsswitch.conf
// names. A static program cannot safely load the machine's NSS modules (libnss_mdns4_minimal on
// Ubuntu, libnss_resolve, ...): they link the machine's own libc, another version than the one
// built in. Does nothing in a dynamically linked build, which uses the machine's NSS as usual.
void UseBuiltInNameLookup();

}  // namespace ddbd
