/*
 * Introspection interface of the ACL reference simulator. Every exported
 * name outside the official ACL API starts with "aclsim". These calls work
 * before aclInit and after aclFinalize.
 */
#ifndef ACLSIM_H
#define ACLSIM_H

#include <stdint.h>

#include "acl_hostmem.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t live_host_allocs;     /* aclrtMallocHost(WithCfg) blocks not yet freed */
    uint64_t live_host_bytes;      /* their requested sizes, summed */
    uint64_t live_registrations;   /* ranges registered and not yet unregistered */
    uint64_t live_streams;         /* streams not yet destroyed, default ones included */
    uint64_t live_device_allocs;   /* aclrtMalloc blocks not yet freed */
    uint64_t unlocked_host_allocs; /* live host blocks whose pages mlock could not pin */
} aclsimStats;

/* Fills *out with the current counters; ACL_ERROR_INVALID_PARAM if out is NULL. */
aclError aclsimGetStats(aclsimStats *out);
/* Comma-separated names of the active faults ("" when none). */
const char *aclsimActiveFaults(void);
/* Name of the product family selected by ACLSIM_SOC ("A2", "310P", ...), or
 * NULL before aclInit. */
const char *aclsimFamilyName(void);
/* The driver generation the family's registration follows: "v2" (Atlas A2/A3), "v3"
 * (Ascend 950) or "docs" (no public driver source), or NULL before aclInit. */
const char *aclsimDriverName(void);
/* Number of faults the simulator knows and the name of fault i (NULL when
 * out of range). */
int aclsimFaultCount(void);
const char *aclsimFaultName(int index);

#ifdef __cplusplus
}
#endif

#endif /* ACLSIM_H */
