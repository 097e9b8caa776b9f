// The HTTPS server's OpenSSL context as ddbd configures it (--tls-cert, --tls-key): the PEM
// certificate chain and key, TLS 1.2 or newer, forward-secret AEAD suites only.
#pragma once

#include <openssl/ssl.h>

#include <string>

namespace ddbd {

// True when `context` holds the chain and its key; else false with a line naming the flag and
// why in `error`.
bool ConfigureServerTls(SSL_CTX* context, const std::string& cert_file, const std::string& key_file,
                        std::string& error);

}  // namespace ddbd
