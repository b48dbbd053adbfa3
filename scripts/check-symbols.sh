#!/usr/bin/env bash
# Purity the compiler proves: fails when an object file of a pure target refers to the clock,
# files, processes, threads, the environment, libc I/O, Dispatch, or the Foundation types that
# reach the outside world. It reads what the build produced (`nm -u`: the symbols an object
# needs from elsewhere), so no way of writing a call gets round it: `Date ()`, `.init()` in a
# function returning `Date`, `.now` on the line after `Date`, `open`/`time`/`environ` reached
# through Foundation's re-export of Glibc, `NSDate()`, `Task.detached` all name the same
# symbols. scripts/check-boundaries.sh stays as the fast first pass on the sources (imports);
# scripts/test-boundaries.sh proves this check on every probe.
#
#   scripts/check-symbols.sh [BUILD_DIR]   (default .build/debug; `swift build` first)
#
# BUILD_DIR/<Target>.build holds each pure target's objects: the ones its
# output-file-map.json names when there is one (a deleted source's old object is not
# checked), else every *.o there. Prints each offending object with the symbol it needs.
set -euo pipefail
build=${1:-"$(dirname "$0")/../.build/debug"}
pure=(DocentJSON DocentText DocentReading DocentCore DocentUI DocentApp PulseKit)
nm=$(command -v llvm-nm || command -v nm)
demangle=$(command -v swift-demangle || true)
[ -n "$demangle" ] || { echo "check-symbols: swift-demangle not found (it comes with the Swift toolchain)" >&2; exit 1; }

objects=()
for t in "${pure[@]}"; do
  dir="$build/$t.build"
  [ -d "$dir" ] || { echo "check-symbols: $dir does not exist (run swift build first)" >&2; exit 1; }
  found=0
  if [ -f "$dir/output-file-map.json" ]; then
    while IFS= read -r o; do
      [ -f "$o" ] && { objects+=("$o"); found=$((found + 1)); }
    done < <(grep -oE '"object"[[:space:]]*:[[:space:]]*"[^"]+\.o"' "$dir/output-file-map.json" | sed -E 's/.*"([^"]+)"$/\1/')
  fi
  if [ $found -eq 0 ]; then
    for o in "$dir"/*.o; do [ -f "$o" ] && { objects+=("$o"); found=$((found + 1)); }; done
  fi
  [ $found -gt 0 ] || { echo "check-symbols: no object files in $dir (run swift build first)" >&2; exit 1; }
done

# libc and POSIX by their C names: files and libc I/O, the clock, processes, signals, threads,
# the environment, sleeping, memory maps, sockets, dynamic loading, Dispatch's C face.
c_names='open|open64|openat|openat64|creat|creat64|read|write|pread|pread64|pwrite|pwrite64|readv|writev|close|lseek|lseek64|fopen|fopen64|fdopen|freopen|fread|fwrite|fclose|fgets|fgetc|getc|fputs|fputc|putc|printf|fprintf|vprintf|vfprintf|dprintf|puts|putchar|getchar|getline|getdelim|fflush|fseek|fseeko|ftell|ftello|rewind|fileno|stdin|stdout|stderr|time|clock|clock_gettime|gettimeofday|times|ftime|localtime|localtime_r|mktime|tzset|system|popen|pclose|fork|vfork|execv|execve|execvp|execvpe|execl|execle|execlp|waitpid|wait|kill|raise|signal|sigaction|environ|__environ|getenv|secure_getenv|setenv|unsetenv|putenv|clearenv|sleep|usleep|nanosleep|stat|stat64|lstat|lstat64|fstat|fstat64|fstatat|access|faccessat|mkdir|rmdir|unlink|unlinkat|rename|remove|opendir|readdir|closedir|mmap|mmap64|munmap|msync|socket|connect|bind|listen|accept|send|recv|sendto|recvfrom|getpid|getppid|getuid|geteuid|isatty|ioctl|fcntl|dup|dup2|pipe|poll|select|dlopen|dlsym|getcwd|chdir|exit|_exit|atexit|sysconf|sched_yield|CFAbsoluteTimeGetCurrent|NSLog|NSHomeDirectory|NSTemporaryDirectory|NSUserName|NSFullUserName'
c_re="($c_names|pthread_[a-z_]+|thrd_[a-z_]+|dispatch_[a-z_]+|epoll_[a-z_]+|posix_spawn[a-z_]*|swift_task_create|swift_task_create_[A-Za-z_]+|swift_asyncLet_begin|swift_taskGroup_initialize)$"
# Swift symbols, demangled: the clock (Date.init(), Date.now, the relative-to-now forms, the
# Clock types, Task.sleep), Foundation's outside-world types, reading and writing files,
# the locale/zone/calendar of the machine, Dispatch, the Glibc overlay, the terminal.
swift_re='(Date\.init\(\) ->|\bDate\.now\.getter|Date\.timeIntervalSinceNow\.getter|Date\.init\(timeIntervalSinceNow:|static [A-Za-z.]*\bN?S?Date\.timeIntervalSinceReferenceDate\.getter|\bNSDate\b|\b(Foundation|FoundationEssentials)\.(FileManager|FileHandle|Process|ProcessInfo|Thread|OperationQueue|RunLoop|Timer|UserDefaults|Bundle|Pipe|NSLocale|NSTimeZone|NSCalendar|NSUserDefaults|NSFileManager|NSFileHandle|NSProcessInfo|InputStream|OutputStream|NSData\.__allocating_init\(contentsOf|NSString\.__allocating_init\(contentsOf)\b|init\(contentsOf(File)?(URL)?:|\.write(<[^>(]*>)?\((to|toFile):|\b(Foundation|FoundationEssentials)\.(NSHomeDirectory|NSTemporaryDirectory|NSUserName|NSFullUserName|NSLog)\(|\bwriteToFile\b|static [A-Za-z.]*\b(Locale|TimeZone|Calendar)\.(current|autoupdatingCurrent|local|system|default)\.getter|\bDispatch\.|\bGlibc\.|\bSwiftGlibc\.|\bFoundationNetworking\.|\bFoundationXML\.|\bSwift\.(print|readLine|debugPrint)\(|\bSwift\.CommandLine\b|\bSwift\.(ContinuousClock|SuspendingClock)\b|Swift\.Task<.*>\.(sleep|detached)|\bSwift\.Task<.*>\.init\(|\bSwift\._Concurrency\b)'

tab=$'\t'
report=$("$nm" -u -A "${objects[@]}" 2>/dev/null | sed -E "s/^([^:]+):[[:space:]]*(U[[:space:]]+)?/\\1$tab/" | grep "$tab" | "$demangle" |
  grep -E -e "$tab$c_re" -e "$tab.*$swift_re" | sed "s/$tab/: /" | sort -u || true)
if [ -n "$report" ]; then
  echo "Pure targets' objects need the outside world (inject it instead):" >&2
  echo "$report" >&2
  exit 1
fi
echo "symbols: ${#objects[@]} objects of the pure targets need no clock, file, process, thread or environment"
