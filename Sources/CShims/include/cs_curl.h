#ifndef CS_CURL_H
#define CS_CURL_H
#include <curl/curl.h>
#endif
