/*
 * Fault switches and legal variants. ACLSIM_FAULTS=name[,name...] is parsed
 * once per aclInit into a table of flags indexed by aclsimFaultId (the ids and
 * names come from the generated aclsim_faults.h, itself made from
 * spec/faults.yaml). aclsim_fault() is the single lookup every switch point
 * uses; sim_open_code() is the one place the codes the docs leave open pass
 * (fault point codes.open, where legal_alt_codes swaps them). The same parse arms each fault point
 * (fault_points.h) one of whose faults is on, from the generated list of the
 * faults per point.
 *
 * Lock discipline: the flag and point tables are written only by sim_faults_parse(),
 * which init.c calls with init_lock held and before any other thread can see
 * the library as initialised; readers use relaxed atomic loads. The text
 * answered by aclsimActiveFaults() is rebuilt under the same conditions.
 */
#include <stdio.h>
#include <string.h>

#include "fault_points.h"

static int g_fault_on[ACLSIM_FAULT_COUNT];
static int g_point_armed[ACLSIM_POINT_COUNT];
static char g_active_text[2048];

int aclsim_fault(aclsimFaultId id)
{
    if ((int)id < 0 || id >= ACLSIM_FAULT_COUNT) {
        return 0;
    }
    return __atomic_load_n(&g_fault_on[id], __ATOMIC_RELAXED);
}

int sim_point_armed(aclsimPointId id)
{
    return __atomic_load_n(&g_point_armed[id], __ATOMIC_RELAXED);
}

aclError sim_open_code(aclError rc)
{
    simOpenCodeSite site = {.code = rc};
    FAULT_POINT(CODES_OPEN, &site);
    return site.code;
}

static int fault_index(const char *name, size_t len)
{
    for (int i = 0; i < (int)ACLSIM_FAULT_COUNT; i++) {
        if (strlen(aclsimFaultNames[i]) == len && strncmp(aclsimFaultNames[i], name, len) == 0) {
            return i;
        }
    }
    return -1;
}

static void report_unknown(const char *name, size_t len)
{
    fprintf(stderr, "aclsim: unknown fault '%.*s' in ACLSIM_FAULTS; valid faults:", (int)len, name);
    for (int i = 0; i < (int)ACLSIM_FAULT_COUNT; i++) {
        fprintf(stderr, "%s %s", i ? "," : "", aclsimFaultNames[i]);
    }
    fputc('\n', stderr);
}

static void rebuild_active_text(void)
{
    size_t used = 0;
    g_active_text[0] = '\0';
    for (int i = 0; i < (int)ACLSIM_FAULT_COUNT; i++) {
        if (!g_fault_on[i]) {
            continue;
        }
        int n = snprintf(g_active_text + used, sizeof(g_active_text) - used, "%s%s",
                         used ? "," : "", aclsimFaultNames[i]);
        if (n < 0 || (size_t)n >= sizeof(g_active_text) - used) {
            break;
        }
        used += (size_t)n;
    }
}

/* Returns 0 on success, -1 (after a message on stderr) for an unknown name.
 * Empty items (",,", trailing comma, blanks) are ignored. */
int sim_faults_parse(const char *spec)
{
    int on[ACLSIM_FAULT_COUNT] = {0};
    const char *p = spec ? spec : "";
    while (*p != '\0') {
        while (*p == ',' || *p == ' ') {
            p++;
        }
        const char *start = p;
        while (*p != '\0' && *p != ',' && *p != ' ') {
            p++;
        }
        size_t len = (size_t)(p - start);
        if (len == 0) {
            continue;
        }
        int idx = fault_index(start, len);
        if (idx < 0) {
            report_unknown(start, len);
            return -1;
        }
        on[idx] = 1;
    }
    for (int i = 0; i < (int)ACLSIM_FAULT_COUNT; i++) {
        __atomic_store_n(&g_fault_on[i], on[i], __ATOMIC_RELAXED);
    }
    for (int p = 0; p < (int)ACLSIM_POINT_COUNT; p++) {
        int armed = 0;
        for (unsigned k = aclsimPointFirst[p]; k < aclsimPointFirst[p + 1]; k++) {
            armed |= on[aclsimPointFaultList[k]];
        }
        __atomic_store_n(&g_point_armed[p], armed, __ATOMIC_RELAXED);
    }
    rebuild_active_text();
    return 0;
}

SIM_EXPORT const char *aclsimActiveFaults(void)
{
    return g_active_text;
}

SIM_EXPORT int aclsimFaultCount(void)
{
    return (int)ACLSIM_FAULT_COUNT;
}

SIM_EXPORT const char *aclsimFaultName(int index)
{
    if (index < 0 || index >= (int)ACLSIM_FAULT_COUNT) {
        return NULL;
    }
    return aclsimFaultNames[index];
}
