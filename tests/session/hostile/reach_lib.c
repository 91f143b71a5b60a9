/*
 * A hostile wrapper of the simulator that reaches out of its executor (issue 34), for the sandbox's tests.
 *
 * Linked against the simulator like hostile_lib.c; it breaks double unregister (the fault a vendor wants
 * certified) and its constructor plays one trick, chosen at compile time:
 *
 *   TRICK_PTH      writes a .pth file (the path PTH) into the kit's virtualenv
 *   TRICK_CATALOG  rewrites the generated catalog (the path CATALOG): every "mandatory" becomes "informational"
 *   TRICK_CMDLINE  behaves (no fault) only when its process looks like the kit's executor: a bootstrap on its
 *                  command line (python -c) or a pipe at descriptor 3 or 4
 *   TRICK_SIGNAL   leaves a daemon that sends SIGNAL (then SIGNAL2) to every process of the run it can see (those whose
 *                  environment holds HOSTILE_SCOPE=SCOPE: the CLI, its watchdog, the judges), again and again
 *   TRICK_SEAL     writes forged lines into every descriptor 3..31 of those processes (/proc/PID/fd/N: the
 *                  judge's seal pipe among them) and copies their environment into its own stderr
 *
 * Only processes marked with the test's own SCOPE are touched, never another run on the machine.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FAULT "double_unregister_ok"

static int read_file(const char *path, char *buf, size_t size) {
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    if (n < 0)
        return -1;
    buf[n] = 0;
    return (int)n;
}

#if defined(TRICK_SIGNAL) || defined(TRICK_SEAL)
/* Whether process ``pid`` belongs to the test's run (its environment carries HOSTILE_SCOPE=SCOPE). */
static int in_scope(const char *pid) {
    static char env[1 << 16];
    char path[64];
    snprintf(path, sizeof path, "/proc/%s/environ", pid);
    int n = read_file(path, env, sizeof env);
    for (int i = 0; i < n; i += (int)strlen(env + i) + 1)
        if (strcmp(env + i, "HOSTILE_SCOPE=" SCOPE) == 0)
            return 1;
    return 0;
}

static void reach_everyone(void) {
    char self[32];
    snprintf(self, sizeof self, "%d", getpid());
    DIR *proc = opendir("/proc");
    struct dirent *entry;
    while (proc && (entry = readdir(proc)) != NULL) {
        if (entry->d_name[0] < '1' || entry->d_name[0] > '9' || strcmp(entry->d_name, self) == 0 ||
            !in_scope(entry->d_name))
            continue;
#ifdef TRICK_SIGNAL
        kill(atoi(entry->d_name), SIGNAL);
#ifdef SIGNAL2
        kill(atoi(entry->d_name), SIGNAL2);
#endif
#endif
#ifdef TRICK_SEAL
        for (int fd = 3; fd < 32; fd++) {
            char path[64];
            snprintf(path, sizeof path, "/proc/%s/fd/%d", entry->d_name, fd);
            int w = open(path, O_WRONLY | O_NONBLOCK);
            if (w >= 0) {
                static const char forged[] = "summary.json 0000000000000000000000000000000000000000000000000000000000000000\n";
                if (write(w, forged, sizeof forged - 1) < 0) {
                }
                close(w);
            }
        }
#endif
    }
    if (proc)
        closedir(proc);
}
#endif

__attribute__((constructor)) static void trick(void) {
    setenv("ACLSIM_FAULTS", FAULT, 1);
#ifdef TRICK_PTH
    FILE *pth = fopen(PTH, "w");
    if (pth) {
        fputs("import os\n", pth);
        fclose(pth);
    }
#endif
#ifdef TRICK_CATALOG
    static char buf[16 << 20];
    int n = read_file(CATALOG, buf, sizeof buf);
    if (n > 0) {
        FILE *f = fopen(CATALOG, "r+");
        if (f) {
            for (char *p = buf; (p = strstr(p, "\"mandatory\"")) != NULL; p++)
                memcpy(p, "\"recommend\"", 11); /* same length: the file is rewritten in place */
            fwrite(buf, 1, (size_t)n, f);
            fclose(f);
        }
    }
#endif
#ifdef TRICK_CMDLINE
    char cmdline[4096], link[64], target[64];
    int n = read_file("/proc/self/cmdline", cmdline, sizeof cmdline);
    int kit = 0;
    for (int i = 0; i < n; i += (int)strlen(cmdline + i) + 1)
        if (strcmp(cmdline + i, "-c") == 0 || strstr(cmdline + i, "exec(os.read(") != NULL)
            kit = 1;
    for (int fd = 3; fd <= 4; fd++) {
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        ssize_t len = readlink(link, target, sizeof target - 1);
        if (len > 0 && strncmp(target, "pipe:", 5) == 0)
            kit = 1;
    }
    if (kit)
        unsetenv("ACLSIM_FAULTS"); /* watched: behave */
#endif
#if defined(TRICK_SIGNAL) || defined(TRICK_SEAL)
    if (fork() == 0) {
        setsid();
        if (fork() == 0) {
            for (int i = 0; i < 400; i++) {
                reach_everyone();
                usleep(50000);
            }
            _exit(0);
        }
        _exit(0);
    }
#endif
}
