// libcurl shims: curl_easy_setopt and curl_easy_getinfo are C variadics, which Swift cannot
// call. Each wrapper below fixes the third argument's type. They are general on purpose: the
// HTTP fetcher (NetCurl) and the audio stream (AudioPlayback, curl -> mpg123) both use them.
//
// Callbacks are plain C function pointers. From Swift pass a `@convention(c)` closure that
// captures nothing, and carry state through `userdata`
// (`Unmanaged.passUnretained(obj).toOpaque()`).
#ifndef CS_CURL_H
#define CS_CURL_H
#include <stddef.h>
#include <curl/curl.h>

/// Body and header callback: `size * nmemb` bytes at `ptr`. Return the number of bytes taken;
/// anything else aborts the transfer (body: CURLE_WRITE_ERROR 23).
typedef size_t (*cs_curl_data_cb)(char *ptr, size_t size, size_t nmemb, void *userdata);

/// Progress callback (CURLOPT_XFERINFOFUNCTION). Return non-zero to abort the transfer
/// (CURLE_ABORTED_BY_CALLBACK 42). Called about once a second even when no data flows.
typedef int (*cs_curl_xferinfo_cb)(void *userdata, curl_off_t dltotal, curl_off_t dlnow,
                                   curl_off_t ultotal, curl_off_t ulnow);

// --- curl_easy_setopt, one per argument type -------------------------------------------
/// Options of type CURLOPTTYPE_LONG (flags, counts, *_MS timeouts, enums).
CURLcode cs_curl_setopt_long(CURL *curl, CURLoption option, long value);
/// Options of type CURLOPTTYPE_OFF_T (the `*_LARGE` options).
CURLcode cs_curl_setopt_off(CURL *curl, CURLoption option, curl_off_t value);
/// String options. libcurl copies the string (except CURLOPT_POSTFIELDS: use
/// CURLOPT_COPYPOSTFIELDS, which copies). NULL resets the option to its default.
CURLcode cs_curl_setopt_str(CURL *curl, CURLoption option, const char *value);
/// Pointer options (WRITEDATA, ERRORBUFFER, PRIVATE, ...). The pointer must outlive the handle's use.
CURLcode cs_curl_setopt_ptr(CURL *curl, CURLoption option, void *value);
/// List options (CURLOPT_HTTPHEADER, ...). The list must outlive the transfer; free it with
/// curl_slist_free_all after curl_easy_cleanup or after resetting the option.
CURLcode cs_curl_setopt_slist(CURL *curl, CURLoption option, struct curl_slist *list);

/// Sets CURLOPT_WRITEFUNCTION and CURLOPT_WRITEDATA. `cb` NULL restores libcurl's default (fwrite).
CURLcode cs_curl_setopt_write_cb(CURL *curl, void *userdata, cs_curl_data_cb cb);
/// Sets CURLOPT_HEADERFUNCTION and CURLOPT_HEADERDATA. Called once per header line (CRLF
/// included), for every response: redirects and "100 Continue" included.
CURLcode cs_curl_setopt_header_cb(CURL *curl, void *userdata, cs_curl_data_cb cb);
/// Sets CURLOPT_XFERINFOFUNCTION and CURLOPT_XFERINFODATA, and CURLOPT_NOPROGRESS to 0
/// (1 when `cb` is NULL): without that the callback is never called.
CURLcode cs_curl_setopt_xferinfo_cb(CURL *curl, void *userdata, cs_curl_xferinfo_cb cb);

/// Debug callback (CURLOPT_DEBUGFUNCTION): `type` says what `data` is (CURLINFO_TEXT: libcurl's
/// informational lines). Return 0.
typedef int (*cs_curl_debug_cb)(CURL *curl, curl_infotype type, char *data, size_t size, void *userdata);
/// Sets CURLOPT_DEBUGFUNCTION and CURLOPT_DEBUGDATA, and CURLOPT_VERBOSE to 1 (0 when `cb` is
/// NULL): without VERBOSE the callback is never called. The informational lines are the only
/// place libcurl says that a server sent more than its Content-Length ("Excess found").
CURLcode cs_curl_setopt_debug_cb(CURL *curl, void *userdata, cs_curl_debug_cb cb);

// --- curl_easy_getinfo, one per result type ----------------------------------------------
/// CURLINFO_LONG values (RESPONSE_CODE, HTTP_VERSION, ...).
CURLcode cs_curl_getinfo_long(CURL *curl, CURLINFO info, long *out);
/// CURLINFO_OFF_T values (CONTENT_LENGTH_DOWNLOAD_T, SIZE_DOWNLOAD_T, *_TIME_T, ...). -1 if unknown.
CURLcode cs_curl_getinfo_off(CURL *curl, CURLINFO info, curl_off_t *out);
/// CURLINFO_DOUBLE values (TOTAL_TIME, ...).
CURLcode cs_curl_getinfo_double(CURL *curl, CURLINFO info, double *out);
/// CURLINFO_STRING values (CONTENT_TYPE, EFFECTIVE_URL, ...). `*out` may be NULL; it points into
/// the handle and is valid until the next transfer or curl_easy_cleanup: copy it.
CURLcode cs_curl_getinfo_str(CURL *curl, CURLINFO info, const char **out);

// --- misc -------------------------------------------------------------------------------
/// curl_slist_append, returning the (possibly new) list head; NULL on failure, in which case
/// `list` is left untouched (still owned by the caller).
struct curl_slist *cs_curl_slist_append(struct curl_slist *list, const char *string);
/// Sets SIGPIPE to SIG_IGN unless a handler is already installed. Needed with CURLOPT_NOSIGNAL=1:
/// writing to a socket the peer closed would otherwise kill the process (OpenSSL, HTTP/1 keep-alive).
void cs_curl_ignore_sigpipe(void);

#endif
