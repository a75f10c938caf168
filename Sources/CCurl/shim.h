// libcurl's curl_easy_setopt and curl_easy_getinfo are variadic, which does not import into
// Swift: wrap the forms the index download uses.
#include <curl/curl.h>

static inline CURLcode cityindex_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode cityindex_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode cityindex_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode cityindex_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*cityindex_curl_write_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode cityindex_curl_set_write_function(CURL *handle, cityindex_curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode cityindex_curl_set_header_function(CURL *handle, cityindex_curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}

typedef int (*cityindex_curl_progress_callback)(void *context, curl_off_t downloadTotal, curl_off_t downloaded,
                                                curl_off_t uploadTotal, curl_off_t uploaded);
static inline CURLcode cityindex_curl_set_progress_function(CURL *handle, cityindex_curl_progress_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline long cityindex_curl_response_code(CURL *handle) {
    long code = 0;
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

static inline const char *cityindex_curl_effective_url(CURL *handle) {
    char *url = NULL;
    curl_easy_getinfo(handle, CURLINFO_EFFECTIVE_URL, &url);
    return url;
}

/// Allows only https (or, when `allowHTTP`, http and https), for the request and every redirect.
static inline CURLcode cityindex_curl_restrict_protocols(CURL *handle, int allowHTTP) {
#if LIBCURL_VERSION_NUM >= 0x075500
    const char *protocols = allowHTTP ? "http,https" : "https";
    CURLcode code = curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, protocols);
    if (code != CURLE_OK) return code;
    return curl_easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS_STR, protocols);
#else
    long protocols = allowHTTP ? (CURLPROTO_HTTP | CURLPROTO_HTTPS) : CURLPROTO_HTTPS;
    CURLcode code = curl_easy_setopt(handle, CURLOPT_PROTOCOLS, protocols);
    if (code != CURLE_OK) return code;
    return curl_easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS, protocols);
#endif
}
