/*
 * Minimal C client of the host-memory interfaces, using only official ACL
 * names: allocate page-locked memory, register it, look its device pointer
 * up, copy host to host through the host pointer, unregister, free.
 * Exit status 0 when every step behaved as documented.
 */
#include <stdio.h>
#include <string.h>

#include "acl_hostmem.h"

#define CHECK(call)                                                             \
    do {                                                                        \
        aclError rc_ = (call);                                                  \
        if (rc_ != ACL_SUCCESS) {                                               \
            fprintf(stderr, "client: %s failed with %d\n", #call, (int)rc_);    \
            return 1;                                                           \
        }                                                                       \
    } while (0)

int main(void)
{
    const size_t size = 1u << 20;
    void *host = NULL;
    void *dev = NULL;
    void *again = NULL;
    static char pattern[4096];

    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtMallocHost(&host, size));
    if ((size_t)host % 64 != 0) {
        fprintf(stderr, "client: %p is not 64-byte aligned\n", host);
        return 1;
    }
    CHECK(aclrtHostRegister(host, size, ACL_HOST_REGISTER_MAPPED, &dev));
    CHECK(aclrtHostGetDevicePointer(host, &again, 0));
    if (again != dev) {
        fprintf(stderr, "client: device pointer %p differs from %p\n", again, dev);
        return 1;
    }
    for (size_t i = 0; i < sizeof(pattern); i++) {
        pattern[i] = (char)(i * 7 + 3);
    }
    CHECK(aclrtMemcpy(host, size, pattern, sizeof(pattern), ACL_MEMCPY_HOST_TO_HOST));
    if (memcmp(host, pattern, sizeof(pattern)) != 0) {
        fprintf(stderr, "client: copied bytes differ\n");
        return 1;
    }
    CHECK(aclrtHostUnregister(host));
    CHECK(aclrtFreeHost(host));
    CHECK(aclFinalize());
    printf("client: ok\n");
    return 0;
}
