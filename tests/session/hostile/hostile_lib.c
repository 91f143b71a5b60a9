/*
 * A hostile wrapper of the simulator, for the tests of the judge/executor split.
 *
 * Linked against the simulator (DT_NEEDED), so every ACL function resolves to the
 * simulator's; its constructor runs when the kit loads the library and plays one trick,
 * chosen at compile time:
 *
 *   TRICK_DEFEAT  behave (no fault) only while pytest's environment is visible
 *   TRICK_INJECT  break double unregister and, from inside the process, wrap every pairing
 *                 check so that its failure is swallowed
 *   TRICK_TAMPER  break double unregister and leave a daemon that finds the report directory
 *                 (--acl-report-dir on a command line, under the folder SCOPE) and rewrites
 *                 FAIL to PASS in its summary.json once it appears
 *   TRICK_HELPER  fork a helper that keeps every inherited descriptor and sleeps (F4)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FAULT "double_unregister_ok"

#ifdef TRICK_TAMPER
#include <dirent.h>

/* The report directory of the run: the argument after --acl-report-dir on some process's command line. */
static int report_dir(char *out, size_t size) {
    DIR *proc = opendir("/proc");
    struct dirent *entry;
    int found = 0;
    while (proc && !found && (entry = readdir(proc)) != NULL) {
        char path[64], args[16384];
        snprintf(path, sizeof path, "/proc/%s/cmdline", entry->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        size_t n = fread(args, 1, sizeof args - 1, f);
        fclose(f);
        args[n] = 0;
        for (size_t i = 0; i < n; i += strlen(args + i) + 1) {
            const char *dir = args + i + strlen(args + i) + 1;
            /* Only runs under SCOPE: the test's own, never another test's running beside it. */
            if (strcmp(args + i, "--acl-report-dir") == 0 && i + strlen(args + i) + 1 < n &&
                strncmp(dir, SCOPE, strlen(SCOPE)) == 0) {
                snprintf(out, size, "%s", dir);
                found = 1;
                break;
            }
        }
    }
    if (proc)
        closedir(proc);
    return found;
}

static void tamper_forever(void) {
    char dir[4096], path[4200];
    for (int i = 0; i < 1200; i++) {
        if (!report_dir(dir, sizeof dir)) {
            usleep(50000);
            continue;
        }
        snprintf(path, sizeof path, "%s/summary.json", dir);
        FILE *f = fopen(path, "rb");
        if (f) {
            static char buf[8 << 20];
            size_t n = fread(buf, 1, sizeof buf - 1, f);
            fclose(f);
            buf[n] = 0;
            int changed = 0;
            for (char *p = buf; (p = strstr(p, "\"FAIL\"")) != NULL; p += 6) {
                memcpy(p, "\"PASS\"", 6);
                changed = 1;
            }
            if (changed) {
                f = fopen(path, "wb");
                if (f) {
                    fwrite(buf, 1, n, f);
                    fclose(f);
                }
                return;
            }
        }
        usleep(50000);
    }
}
#endif

__attribute__((constructor)) static void trick(void) {
#ifdef TRICK_DEFEAT
    if (!getenv("PYTEST_CURRENT_TEST") && !getenv("PYTEST_XDIST_WORKER"))
        setenv("ACLSIM_FAULTS", FAULT, 1);
#endif
#ifdef TRICK_INJECT
    setenv("ACLSIM_FAULTS", FAULT, 1);
    int (*ensure)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "PyGILState_Ensure");
    void (*release)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "PyGILState_Release");
    int (*run)(const char *) = (int (*)(const char *))dlsym(RTLD_DEFAULT, "PyRun_SimpleString");
    if (ensure && release && run) {
        int state = ensure();
        run("import conformance.checks.pairing as m\n"
            "def _wrap(f):\n"
            "    def w(*a, **k):\n"
            "        try:\n"
            "            return f(*a, **k)\n"
            "        except BaseException:\n"
            "            return None\n"
            "    w.__name__ = f.__name__\n"
            "    return w\n"
            "for n in dir(m):\n"
            "    f = getattr(m, n)\n"
            "    if callable(f) and getattr(f, '__module__', '') == m.__name__:\n"
            "        setattr(m, n, _wrap(f))\n");
        release(state);
    }
#endif
#ifdef TRICK_TAMPER
    setenv("ACLSIM_FAULTS", FAULT, 1);
    if (fork() == 0) {
        setsid();
        if (fork() == 0) {
            tamper_forever();
            _exit(0);
        }
        _exit(0);
    }
#endif
#ifdef TRICK_HELPER
    if (fork() == 0) {
        sleep(1000);  /* keeps the stdout, stderr and protocol pipes it inherited */
        _exit(0);
    }
#endif
}
