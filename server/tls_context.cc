#include "server/tls_context.h"

#include <openssl/err.h>

#include <cstring>

namespace ddbd {
namespace {

// The reason of the first error in OpenSSL's queue on this thread (then emptied), as one line.
std::string LastError() {
  const unsigned long code = ERR_peek_error();  // the first: the cause
  ERR_clear_error();
  // A file that cannot be opened is a system error: its errno says why.
  if (ERR_SYSTEM_ERROR(code)) return std::strerror(ERR_GET_REASON(code));
  const char* reason = ERR_reason_error_string(code);
  return reason != nullptr ? reason : "unknown error";
}

}  // namespace

bool ConfigureServerTls(SSL_CTX* context, const std::string& cert_file, const std::string& key_file,
                        std::string& error) {
  if (SSL_CTX_use_certificate_chain_file(context, cert_file.c_str()) != 1) {
    error = "--tls-cert: cannot use '" + cert_file + "': " + LastError();
    return false;
  }
  if (SSL_CTX_use_PrivateKey_file(context, key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
    error = "--tls-key: cannot use '" + key_file + "': " + LastError();
    return false;
  }
  SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
  // TLS 1.2 offers forward-secret AEAD suites only (no RSA key exchange, no CBC); TLS 1.3's
  // suites are all of that kind.
  SSL_CTX_set_cipher_list(context,
                          "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"
                          "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:"
                          "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305");
  SSL_CTX_set_options(context, SSL_OP_CIPHER_SERVER_PREFERENCE);
  return true;
}

}  // namespace ddbd
