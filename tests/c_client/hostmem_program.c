/*
 * An ordinary host-memory program written only against the official ACL header and
 * names: it includes "acl/acl.h" and uses the device, context, run-mode and stream calls
 * a real application uses around the host-memory interfaces. Each step checks the
 * documented semantics; the exit status is 0 when all of them hold.
 *
 * Build: cc -I<include dir with acl/acl.h> hostmem_program.c -lascendcl
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"

#define CHECK(call)                                                                \
    do {                                                                           \
        aclError rc_ = (call);                                                     \
        if (rc_ != ACL_SUCCESS) {                                                  \
            fprintf(stderr, "program: %s failed with %d\n", #call, (int)rc_);      \
            return 1;                                                              \
        }                                                                          \
    } while (0)

#define EXPECT(cond, what)                                                         \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "program: %s\n", what);                                \
            return 1;                                                              \
        }                                                                          \
    } while (0)

static volatile int g_release;
static volatile int g_entered;

/* A host task that holds its stream until released (bounded, so nothing can wedge). */
static void hold(void *arg)
{
    (void)arg;
    struct timespec pause = {0, 1000000};
    g_entered = 1;
    for (int i = 0; i < 5000 && !g_release; i++) {
        nanosleep(&pause, NULL);
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int devices_and_contexts(void)
{
    int32_t dev = -1;
    aclrtRunMode mode;
    aclrtContext made = NULL;
    aclrtContext current = NULL;

    EXPECT(aclrtGetDevice(&dev) != ACL_SUCCESS, "aclrtGetDevice succeeded before any device was set");
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtGetDevice(&dev));
    EXPECT(dev == 0, "aclrtGetDevice does not report the device just set");
    CHECK(aclrtGetRunMode(&mode));
    EXPECT(mode == ACL_HOST || mode == ACL_DEVICE, "aclrtGetRunMode answered no aclrtRunMode");

    CHECK(aclrtCreateContext(&made, 0)); /* creating a context makes it current */
    CHECK(aclrtGetCurrentContext(&current));
    EXPECT(current == made, "the context just created is not current");
    CHECK(aclrtSetCurrentContext(made)); /* the last set wins */
    CHECK(aclrtDestroyContext(made));
    EXPECT(aclrtGetDevice(&dev) != ACL_SUCCESS, "a destroyed context is still current");
    CHECK(aclrtSetDevice(0)); /* back to the default context */
    CHECK(aclrtGetCurrentContext(&current));
    EXPECT(current != NULL, "no current context after aclrtSetDevice");
    return 0;
}

static int host_memory_round_trip(void)
{
    const size_t size = 1u << 20;
    void *host = NULL;
    void *dev = NULL;
    void *again = NULL;
    static char pattern[4096];

    CHECK(aclrtMallocHost(&host, size));
    EXPECT((size_t)host % 64 == 0, "aclrtMallocHost memory is not 64-byte aligned");
    CHECK(aclrtMemset(host, size, 0x5a, size));
    EXPECT(((unsigned char *)host)[size - 1] == 0x5a, "aclrtMemset did not reach the end");
    void *page = (void *)(((size_t)host + 4095) / 4096 * 4096);
    CHECK(aclrtHostRegister(page, 4096, ACL_HOST_REGISTER_MAPPED, &dev));
    CHECK(aclrtHostGetDevicePointer(page, &again, 0));
    EXPECT(again == dev, "aclrtHostGetDevicePointer differs from the registered address");
    for (size_t i = 0; i < sizeof(pattern); i++) {
        pattern[i] = (char)(i * 7 + 3);
    }
    CHECK(aclrtMemcpy(page, 4096, pattern, sizeof(pattern), ACL_MEMCPY_HOST_TO_HOST));
    EXPECT(memcmp(page, pattern, sizeof(pattern)) == 0, "the copy through the host address differs");
    CHECK(aclrtHostUnregister(page));
    EXPECT(aclrtHostUnregister(page) == ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "a second unregister did not fail");
    CHECK(aclrtFreeHost(host));
    return 0;
}

static int streams(void)
{
    aclrtStream stream = NULL;
    void *host = NULL;

    CHECK(aclrtCreateStream(&stream));
    CHECK(aclrtMallocHost(&host, 4096));
    CHECK(aclrtLaunchHostFunc(stream, hold, NULL));
    while (!g_entered) {
    }
    double start = now();
    CHECK(aclrtDestroyStreamForce(stream)); /* does not wait for the unfinished task */
    EXPECT(now() - start < 2.0, "aclrtDestroyStreamForce waited for the unfinished task");
    g_release = 1;
    CHECK(aclrtFreeHostWithDevSync(host));
    return 0;
}

int main(void)
{
    CHECK(aclInit(NULL));
    if (devices_and_contexts() != 0 || host_memory_round_trip() != 0 || streams() != 0) {
        return 1;
    }
    CHECK(aclrtResetDeviceForce(0)); /* releases the device whatever its reference count */
    EXPECT(aclrtResetDeviceForce(0) != ACL_SUCCESS, "a second forced reset of a released device succeeded");
    CHECK(aclFinalize());
    printf("program: ok\n");
    return 0;
}
