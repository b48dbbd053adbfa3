// libcurl shims: see include/cs_curl.h.
#include "cs_curl.h"
#include <signal.h>
#include <string.h>

CURLcode cs_curl_setopt_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}

CURLcode cs_curl_setopt_off(CURL *curl, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(curl, option, value);
}

CURLcode cs_curl_setopt_str(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}

CURLcode cs_curl_setopt_ptr(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}

CURLcode cs_curl_setopt_slist(CURL *curl, CURLoption option, struct curl_slist *list) {
    return curl_easy_setopt(curl, option, list);
}

CURLcode cs_curl_setopt_write_cb(CURL *curl, void *userdata, cs_curl_data_cb cb) {
    CURLcode rc = curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, cb);
    if (rc != CURLE_OK) return rc;
    return curl_easy_setopt(curl, CURLOPT_WRITEDATA, userdata);
}

CURLcode cs_curl_setopt_header_cb(CURL *curl, void *userdata, cs_curl_data_cb cb) {
    CURLcode rc = curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, cb);
    if (rc != CURLE_OK) return rc;
    return curl_easy_setopt(curl, CURLOPT_HEADERDATA, userdata);
}

CURLcode cs_curl_setopt_xferinfo_cb(CURL *curl, void *userdata, cs_curl_xferinfo_cb cb) {
    CURLcode rc = curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, cb);
    if (rc != CURLE_OK) return rc;
    rc = curl_easy_setopt(curl, CURLOPT_XFERINFODATA, userdata);
    if (rc != CURLE_OK) return rc;
    return curl_easy_setopt(curl, CURLOPT_NOPROGRESS, cb ? 0L : 1L);
}

CURLcode cs_curl_setopt_debug_cb(CURL *curl, void *userdata, cs_curl_debug_cb cb) {
    CURLcode rc = curl_easy_setopt(curl, CURLOPT_DEBUGFUNCTION, cb);
    if (rc != CURLE_OK) return rc;
    rc = curl_easy_setopt(curl, CURLOPT_DEBUGDATA, userdata);
    if (rc != CURLE_OK) return rc;
    return curl_easy_setopt(curl, CURLOPT_VERBOSE, cb ? 1L : 0L);
}

CURLcode cs_curl_getinfo_long(CURL *curl, CURLINFO info, long *out) {
    return curl_easy_getinfo(curl, info, out);
}

CURLcode cs_curl_getinfo_off(CURL *curl, CURLINFO info, curl_off_t *out) {
    return curl_easy_getinfo(curl, info, out);
}

CURLcode cs_curl_getinfo_double(CURL *curl, CURLINFO info, double *out) {
    return curl_easy_getinfo(curl, info, out);
}

CURLcode cs_curl_getinfo_str(CURL *curl, CURLINFO info, const char **out) {
    char *value = NULL;
    CURLcode rc = curl_easy_getinfo(curl, info, &value);
    *out = value;
    return rc;
}

struct curl_slist *cs_curl_slist_append(struct curl_slist *list, const char *string) {
    return curl_slist_append(list, string);
}

void cs_curl_ignore_sigpipe(void) {
    struct sigaction old;
    memset(&old, 0, sizeof old);
    if (sigaction(SIGPIPE, NULL, &old) != 0) return;
    if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL) {
        struct sigaction ign;
        memset(&ign, 0, sizeof ign);
        ign.sa_handler = SIG_IGN;
        sigemptyset(&ign.sa_mask);
        sigaction(SIGPIPE, &ign, NULL);
    }
}
