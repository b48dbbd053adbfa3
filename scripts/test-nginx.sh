#!/usr/bin/env bash
# A private nginx on 127.0.0.1 for adapter tests (real HTTP: ETag/304, Range, 404, slow bodies).
#
#   scripts/test-nginx.sh start ROOT_DIR PORT_FILE   serve ROOT_DIR; write the chosen port to PORT_FILE
#   scripts/test-nginx.sh stop [PORT_FILE]           stop the server started with PORT_FILE
#                                                    (without it: the last one started)
#
# Locations, all serving ROOT_DIR:
#   /            static files: ETag, Last-Modified, If-None-Match -> 304, Range requests.
#                POST to a static file answers 200 with the file (error_page 405 =200), like a
#                Data-Aggregator style JSON endpoint.
#   /slow/       the same files at 2 KiB/s (limit_rate), for timeout tests.
#   /norange/    the same files with Range disabled (max_ranges 0: always 200 and the full body).
#   /status500/  POST to a static file answers 500 with the file (a SOAP fault's way).
#   /status429/  POST to a static file answers 429 with the file (a Pulse service's rate limit,
#                with whatever wait the file says).
# Besides access.log, requests.log has one line a request: the request line, status, the SOAPAction
# and Content-Type headers and the request length (what a SOAP client sent).
#
# Everything (nginx.conf, pid, logs, temp dirs) lives in one directory under ${TMPDIR:-/tmp};
# `stop` removes it. The port is the first free one from a random start in 18000-28999:
# nginx itself tries to bind, so there is no race with other test runs.
set -euo pipefail

TMP_BASE="${TMPDIR:-/tmp}"
LAST_FILE="$TMP_BASE/docent-test-nginx.last"

usage() {
    echo "usage: $0 start ROOT_DIR PORT_FILE | stop [PORT_FILE]" >&2
    exit 2
}

find_nginx() {
    local n
    for n in "$(command -v nginx 2>/dev/null || true)" /usr/sbin/nginx /usr/local/sbin/nginx; do
        if [[ -n "$n" && -x "$n" ]]; then
            echo "$n"
            return 0
        fi
    done
    echo "test-nginx: nginx not found (apt-get install nginx-light)" >&2
    exit 1
}

write_conf() {  # dir root port
    local dir="$1" root="$2" port="$3" user_line="" types_line
    # As root, workers would run as "nobody" and could not read a 0700 temp dir.
    # (Not root: nginx ignores the directive with a warning, so leave it out.)
    if [[ "$(id -u)" == 0 ]]; then
        user_line="user root;"
    fi
    if [[ -r /etc/nginx/mime.types ]]; then
        types_line="include /etc/nginx/mime.types;"
    else
        types_line="types { application/json json; text/html html; text/plain txt; audio/mpeg mp3; }"
    fi
    cat >"$dir/nginx.conf" <<EOF
$user_line
daemon on;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 128; }
http {
    $types_line
    default_type application/octet-stream;
    access_log $dir/access.log;
    log_format docent '"\$request" \$status "\$http_soapaction" "\$content_type" \$request_length';
    access_log $dir/requests.log docent;
    client_body_temp_path $dir/body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
    sendfile on;
    keepalive_timeout 5;
    server {
        listen 127.0.0.1:$port;
        server_name localhost;
        root $root;
        error_page 405 =200 \$uri;
        location / { }
        location /slow/ {
            alias $root/;
            limit_rate 2k;
        }
        location /norange/ {
            alias $root/;
            max_ranges 0;
        }
        location /status500/ {
            alias $root/;
            error_page 405 =500 \$uri;
        }
        location /status429/ {
            alias $root/;
            error_page 405 =429 \$uri;
        }
    }
}
EOF
}

# Starts the nginx daemon with no inherited descriptors beyond 0-2 (stdin/stdout: /dev/null).
# Foundation's Process on Linux hands the child a socket and waits for it to close: a daemon
# that inherits it makes the caller's waitUntilExit() hang forever (swift-corelibs-foundation
# #4795). The same goes for a caller's pipe: it would never see EOF.
launch() {  # nginx dir
    (
        local fd
        for fd in /proc/self/fd/* /dev/fd/*; do
            fd="${fd##*/}"
            [[ "$fd" =~ ^[0-9]+$ ]] || continue
            ((fd > 2 && fd != 255)) || continue
            eval "exec $fd>&-" 2>/dev/null || true
        done
        exec "$1" -p "$2" -e "$2/error.log" -c "$2/nginx.conf" </dev/null >/dev/null
    )
}

cmd_start() {
    local root="$1" port_file="$2" nginx dir port tries start
    [[ -d "$root" ]] || { echo "test-nginx: not a directory: $root" >&2; exit 1; }
    root="$(cd "$root" && pwd -P)"
    nginx="$(find_nginx)"
    dir="$(mktemp -d "$TMP_BASE/docent-nginx.XXXXXX")"
    start=$((18000 + RANDOM % 11000))
    for ((tries = 0; tries < 50; tries++)); do
        port=$((start + tries))
        write_conf "$dir" "$root" "$port"
        : >"$dir/error.log"
        if launch "$nginx" "$dir" 2>"$dir/start.err"; then
            # daemon on: the parent returns once the socket is bound; the master writes the pid.
            local waited
            for ((waited = 0; waited < 50; waited++)); do
                [[ -s "$dir/nginx.pid" ]] && break
                sleep 0.1
            done
            if [[ ! -s "$dir/nginx.pid" ]]; then
                echo "test-nginx: nginx started but wrote no pid file ($dir)" >&2
                exit 1
            fi
            echo "$port" >"$port_file.tmp"
            mv "$port_file.tmp" "$port_file"
            echo "$dir" >"$port_file.nginx-dir"
            echo "$port_file" >"$LAST_FILE"
            echo "test-nginx: serving $root on http://127.0.0.1:$port/ (dir $dir)" >&2
            return 0
        fi
        if grep -q "Address already in use" "$dir/start.err" "$dir/error.log" 2>/dev/null; then
            continue
        fi
        echo "test-nginx: nginx failed to start:" >&2
        cat "$dir/start.err" "$dir/error.log" >&2 || true
        rm -rf "$dir"
        exit 1
    done
    echo "test-nginx: no free port from $start to $port" >&2
    rm -rf "$dir"
    exit 1
}

cmd_stop() {
    local port_file="${1:-}" dir pid waited
    if [[ -z "$port_file" ]]; then
        [[ -r "$LAST_FILE" ]] || { echo "test-nginx: nothing to stop" >&2; return 0; }
        port_file="$(cat "$LAST_FILE")"
    fi
    [[ -r "$port_file.nginx-dir" ]] || { echo "test-nginx: no server recorded for $port_file" >&2; return 0; }
    dir="$(cat "$port_file.nginx-dir")"
    if [[ -s "$dir/nginx.pid" ]]; then
        pid="$(cat "$dir/nginx.pid")"
        if kill -TERM "$pid" 2>/dev/null; then
            for ((waited = 0; waited < 50; waited++)); do
                kill -0 "$pid" 2>/dev/null || break
                sleep 0.1
            done
            kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
        fi
    fi
    # Only ever delete what `start` created.
    if [[ "$dir" == "$TMP_BASE"/docent-nginx.* && -d "$dir" ]]; then
        rm -rf "$dir"
    fi
    rm -f "$port_file" "$port_file.nginx-dir"
    if [[ -r "$LAST_FILE" && "$(cat "$LAST_FILE")" == "$port_file" ]]; then
        rm -f "$LAST_FILE"
    fi
}

case "${1:-}" in
    start) [[ $# -eq 3 ]] || usage; cmd_start "$2" "$3" ;;
    stop) [[ $# -le 2 ]] || usage; cmd_stop "${2:-}" ;;
    *) usage ;;
esac
