#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Fails the Nth fsync/fdatasync of a file whose name ends in -wal, once, with EIO.
   FAILSYNC_NTH=N sets N (0: never). */
static int seen = 0;

static int is_wal(int fd) {
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n < 4) return 0;
    path[n] = 0;
    return strcmp(path + n - 4, "-wal") == 0;
}

static int should_fail(int fd) {
    const char *nth = getenv("FAILSYNC_NTH");
    if (!nth || !is_wal(fd)) return 0;
    return ++seen == atoi(nth);
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = dlsym(RTLD_NEXT, "fsync");
    if (should_fail(fd)) { errno = EIO; return -1; }
    return real(fd);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = dlsym(RTLD_NEXT, "fdatasync");
    if (should_fail(fd)) { errno = EIO; return -1; }
    return real(fd);
}
