/*
 * A hostile wrapper of the simulator that works against its executor slot (issue 33.3), for the fork
 * server's tests: the executors of one slot are forked from one server, one after another, in one sandbox.
 *
 * Linked against the simulator like hostile_lib.c. Its constructor says on stderr (lines "slot: ...") what
 * it found, so that the judge's test reads it from the executor's start output, and plays one trick, chosen at
 * compile time:
 *
 *   TRICK_REMEMBER  looks for what an earlier executor of its slot left (a file in its TMPDIR, a daemon it
 *                   started), then leaves both for the next: a marker file, a directory it makes unreadable
 *                   (mode 000) with a file inside, its TMPDIR made read-only, and a double-forked daemon
 *   TRICK_PARENT    reaches for its parent (the fork server): opens /proc/PPID/mem, reads the links under
 *                   /proc/PPID/fd and takes its descriptors with pidfd_getfd, then sends it HOW (SIGKILL or SIGSTOP)
 *   TRICK_ALL       kills every process it can see (kill(-1, SIGKILL)); only where it is in a PID namespace of
 *                   its own (/proc/1 is bubblewrap), never on the test machine at large
 *   TRICK_BURN      spends BURN_MS milliseconds of CPU as it loads (what a run's CPU accounting must see)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifdef TRICK_REMEMBER
static void remember(void) {
    const char *tmp = getenv("TMPDIR");
    char path[4096], line[64] = "";
    if (!tmp)
        return;
    snprintf(path, sizeof path, "%s/mark", tmp);
    FILE *mark = fopen(path, "r");
    if (mark) {
        if (fgets(line, sizeof line, mark) == NULL)
            line[0] = 0;
        fclose(mark);
        fprintf(stderr, "slot: saw a mark of executor %s\n", line);
    } else {
        fprintf(stderr, "slot: no mark\n");
    }
    DIR *dir = opendir(tmp);
    int entries = 0;
    struct dirent *entry;
    while (dir && (entry = readdir(dir)) != NULL)
        entries += strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0;
    if (dir)
        closedir(dir);
    fprintf(stderr, "slot: %d entries in TMPDIR\n", entries);
    mark = fopen(path, "w");
    if (mark) {
        fprintf(mark, "%d", getpid());
        fclose(mark);
    }
    snprintf(path, sizeof path, "%s/locked", tmp);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/locked/inside", tmp);
    FILE *inside = fopen(path, "w");
    if (inside)
        fclose(inside);
    snprintf(path, sizeof path, "%s/locked", tmp);
    chmod(path, 0);
    chmod(tmp, 0500);
    if (fork() == 0) {
        setsid();
        if (fork() == 0) {
            for (int i = 0; i < 1200; i++)
                usleep(50000); /* a minute: far longer than the test */
            _exit(0);
        }
        _exit(0);
    }
}
#endif

#ifdef TRICK_PARENT
static void reach_parent(void) {
    char path[64];
    pid_t parent = getppid();
    snprintf(path, sizeof path, "/proc/%d/mem", parent);
    int fd = open(path, O_RDWR);
    fprintf(stderr, "slot: parent mem %s\n", fd >= 0 ? "open" : "denied");
    if (fd >= 0)
        close(fd);
    int seen = 0, stolen = 0;
    for (int n = 0; n < 300; n++) {
        char target[128];
        snprintf(path, sizeof path, "/proc/%d/fd/%d", parent, n);
        seen += readlink(path, target, sizeof target) > 0;
    }
    int handle = (int)syscall(SYS_pidfd_open, parent, 0);
    for (int n = 0; handle >= 0 && n < 300; n++) {
        int got = (int)syscall(SYS_pidfd_getfd, handle, n, 0);
        if (got >= 0) {
            stolen++;
            close(got);
        }
    }
    fprintf(stderr, "slot: parent fds %s\n", seen || stolen ? "reached" : "denied");
    kill(parent, HOW);
}
#endif

#ifdef TRICK_ALL
static void kill_everyone(void) {
    char comm[64] = "";
    FILE *init = fopen("/proc/1/comm", "r");
    if (init) {
        if (fgets(comm, sizeof comm, init) == NULL)
            comm[0] = 0;
        fclose(init);
    }
    if (strncmp(comm, "bwrap", 5) != 0) {
        fprintf(stderr, "slot: not in a namespace of its own, nobody killed\n");
        return;
    }
    fprintf(stderr, "slot: killing everyone\n");
    kill(-1, SIGKILL);
}
#endif

#ifdef TRICK_BURN
static void burn(void) {
    struct timespec now;
    double spent = 0;
    volatile unsigned long sink = 0;
    while (spent * 1000 < BURN_MS) {
        for (int i = 0; i < 100000; i++)
            sink += (unsigned long)i;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
        spent = (double)now.tv_sec + now.tv_nsec / 1e9;
    }
    fprintf(stderr, "slot: burnt %.0f ms of CPU\n", spent * 1000);
}
#endif

__attribute__((constructor)) static void trick(void) {
#ifdef TRICK_REMEMBER
    remember();
#endif
#ifdef TRICK_PARENT
    reach_parent();
#endif
#ifdef TRICK_ALL
    kill_everyone();
#endif
#ifdef TRICK_BURN
    burn();
#endif
}
