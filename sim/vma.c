/*
 * What the process's own mappings say about a range of pages: whether every page lies in
 * a mapping and whether every one of those mappings may be written. The drivers pin the
 * pages of pageable memory with write access (v2 svm_master_remote_map.c:1515,
 * :1552-1557; v3 svm_register_pcie_th.c:354), which fails for pages that are not mapped
 * or mapped read-only. The simulator cannot pin for real; it asks the kernel to fault
 * the pages in for writing (MADV_POPULATE_WRITE, Linux 5.14), which is what a write pin
 * does first and which changes no byte: success means mapped and writable, ENOMEM a
 * page that is not mapped. Anything else (EINVAL: a read-only or special mapping, or an
 * older kernel) is settled by the permission bits of the covering mappings in
 * /proc/self/maps, which is slower (the kernel prints every mapping). mincore() would
 * see unmapped pages but not read-only ones, and a write probe could corrupt the memory.
 *
 * Lock discipline: no state and no lock; the file is read with plain system calls (no
 * stdio, no allocation), so the call is safe with any simulator lock held. A mapping that
 * another thread changes while the file is read may be seen either way, as the kernel
 * would see it either way.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sim_internal.h"

#define SIM_MAPS_LINE 128 /* start-end perms: the rest of a line is not needed */

typedef struct {
    uintptr_t cursor; /* the first byte of the range not yet covered */
    uintptr_t end;
    int writable;
    int done;         /* covered, or a gap was found */
} simMapsWalk;

/* One line of /proc/self/maps: "start-end perms offset dev inode path". */
static void walk_line(simMapsWalk *w, const char *line)
{
    char *rest = NULL;
    unsigned long long lo = strtoull(line, &rest, 16);
    if (rest == NULL || *rest != '-') {
        return;
    }
    unsigned long long hi = strtoull(rest + 1, &rest, 16);
    if (rest == NULL || *rest != ' ') {
        return;
    }
    const char *perms = rest + 1;
    if (hi <= w->cursor) {
        return; /* wholly below the part not yet covered */
    }
    if (lo > w->cursor) {
        w->done = 1; /* a hole: the range is not all mapped */
        return;
    }
    if (perms[0] == '\0' || perms[1] != 'w') {
        w->writable = 0;
    }
    w->cursor = (uintptr_t)hi;
    if (w->cursor >= w->end) {
        w->done = 1;
    }
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* The answer of /proc/self/maps for the pages [start, end). */
static simVmaProbe maps_probe(uintptr_t start, uintptr_t end)
{
    simVmaProbe r = {0, 0};
    simMapsWalk w = {start, end, 1, 0};
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return r;
    }
    char buf[4096];
    char line[SIM_MAPS_LINE + 1];
    size_t used = 0;
    int skipping = 0; /* the current line is longer than needed: ignore up to its end */
    ssize_t got;
    while (!w.done && (got = read(fd, buf, sizeof(buf))) > 0) {
        for (ssize_t i = 0; i < got && !w.done; i++) {
            char c = buf[i];
            if (c == '\n') {
                line[used] = '\0';
                walk_line(&w, line);
                used = 0;
                skipping = 0;
            } else if (!skipping) {
                line[used++] = c;
                skipping = used == SIM_MAPS_LINE;
            }
        }
    }
    close(fd);
    r.mapped = w.cursor >= w.end;
    r.writable = r.mapped && w.writable;
    return r;
}

simVmaProbe sim_vma_probe(uintptr_t p, uint64_t len)
{
    simVmaProbe r = {0, 0};
    if (len == 0 || p + len < p || p + len > UINTPTR_MAX - SIM_PAGE) {
        return r;
    }
    uintptr_t start = p / SIM_PAGE * SIM_PAGE;
    uintptr_t end = (p + len + SIM_PAGE - 1) / SIM_PAGE * SIM_PAGE;
    if (madvise((void *)start, end - start, MADV_POPULATE_WRITE) == 0) {
        r.mapped = r.writable = 1;
        return r;
    }
    if (errno == ENOMEM) {
        return r; /* a page of the range is not mapped */
    }
    return maps_probe(start, end);
}
