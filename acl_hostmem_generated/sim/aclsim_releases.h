/* Generated from spec 5d3dcfc70eb619e5 by codegen; do not edit. Regenerate: python -m codegen generate */
/* The CANN releases the spec knows (spec/rules.yaml sources.releases), oldest first, the
 * first release that documents each of the nine interfaces, and the product families whose
 * support a later release adds (interfaces.yaml support_since). ACLSIM_CANN_VERSION picks
 * the release the simulator answers as; without it, the release it was built as
 * (ACLSIM_BUILD_RELEASE, the newest unless a build under build/sim-<release>/). */
#ifndef ACLSIM_RELEASES_GENERATED_H
#define ACLSIM_RELEASES_GENERATED_H

typedef enum {
    ACLSIM_REL_8_5_0 = 0, /* v8.5.0 */
    ACLSIM_REL_9_0_0 = 1, /* v9.0.0 */
    ACLSIM_REL_9_1_0 = 2, /* v9.1.0 */
    ACLSIM_REL_9_2_0_BETA_2 = 3, /* e0c2d1f5a586 */
    ACLSIM_REL_MASTER_681EF7610 = 4, /* 681ef7610df1 */
    ACLSIM_RELEASE_COUNT = 5
} aclsimRelease;

#define ACLSIM_RELEASE_NEWEST 4
#ifndef ACLSIM_BUILD_RELEASE
#define ACLSIM_BUILD_RELEASE ACLSIM_RELEASE_NEWEST
#endif

static const char *const aclsimReleaseNames[ACLSIM_RELEASE_COUNT] = {
    "8.5.0",
    "9.0.0",
    "9.1.0",
    "9.2.0-beta.2",
    "master@681ef7610",
};

/* Each release's ordering key: X, Y, Z, pre-release stage (alpha 0, beta 1, rc 2, final 3), its
 * number; a development snapshot (master@<commit>) is one number above every numbered release. */
#define ACLSIM_SNAPSHOT_KEY 1073741824UL
static const unsigned long aclsimReleaseKey[ACLSIM_RELEASE_COUNT][5] = {
    {8, 5, 0, 3, 0}, /* 8.5.0 */
    {9, 0, 0, 3, 0}, /* 9.0.0 */
    {9, 1, 0, 3, 0}, /* 9.1.0 */
    {9, 2, 0, 1, 2}, /* 9.2.0-beta.2 */
    {1073741824, 0, 0, 0, 0}, /* master@681ef7610 */
};

/* Interface -> the first release that documents it. */
static const struct { const char *name; aclsimRelease since; } aclsimInterfaceSince[] = {
    { "aclrtMallocHost", ACLSIM_REL_8_5_0 },
    { "aclrtMallocHostWithCfg", ACLSIM_REL_8_5_0 },
    { "aclrtFreeHost", ACLSIM_REL_8_5_0 },
    { "aclrtFreeHostWithDevSync", ACLSIM_REL_8_5_0 },
    { "aclrtHostRegister", ACLSIM_REL_8_5_0 },
    { "aclrtHostRegisterV2", ACLSIM_REL_9_0_0 },
    { "aclrtHostGetDevicePointer", ACLSIM_REL_9_0_0 },
    { "aclrtHostMemMapCapabilities", ACLSIM_REL_9_0_0 },
    { "aclrtHostUnregister", ACLSIM_REL_8_5_0 },
};

/* (interface, product family, release): the family is supported only from that release on. */
static const struct { const char *name; const char *family; aclsimRelease since; } aclsimSupportSince[] = {
    { "aclrtMallocHost", "ascend_950", ACLSIM_REL_9_1_0 },
    { "aclrtMallocHost", "atlas_200i_500_a2", ACLSIM_REL_9_2_0_BETA_2 },
    { "aclrtMallocHost", "atlas_inference", ACLSIM_REL_9_2_0_BETA_2 },
    { "aclrtMallocHost", "atlas_training", ACLSIM_REL_9_2_0_BETA_2 },
    { "aclrtMallocHostWithCfg", "ascend_950", ACLSIM_REL_9_1_0 },
    { "aclrtMallocHostWithCfg", "atlas_200i_500_a2", ACLSIM_REL_9_2_0_BETA_2 },
    { "aclrtMallocHostWithCfg", "atlas_inference", ACLSIM_REL_9_2_0_BETA_2 },
    { "aclrtMallocHostWithCfg", "atlas_training", ACLSIM_REL_9_2_0_BETA_2 },
    { "aclrtFreeHost", "ascend_950", ACLSIM_REL_9_1_0 },
    { "aclrtFreeHost", "atlas_200i_500_a2", ACLSIM_REL_9_2_0_BETA_2 },
    { "aclrtFreeHost", "atlas_inference", ACLSIM_REL_9_2_0_BETA_2 },
    { "aclrtFreeHost", "atlas_training", ACLSIM_REL_9_2_0_BETA_2 },
    { "aclrtFreeHostWithDevSync", "ascend_950", ACLSIM_REL_9_1_0 },
    { "aclrtFreeHostWithDevSync", "atlas_200i_500_a2", ACLSIM_REL_9_2_0_BETA_2 },
    { "aclrtFreeHostWithDevSync", "atlas_inference", ACLSIM_REL_9_2_0_BETA_2 },
    { "aclrtFreeHostWithDevSync", "atlas_training", ACLSIM_REL_9_2_0_BETA_2 },
    { "aclrtHostRegister", "ascend_950", ACLSIM_REL_9_2_0_BETA_2 },
    { "aclrtHostRegisterV2", "ascend_950", ACLSIM_REL_9_2_0_BETA_2 },
    { "aclrtHostGetDevicePointer", "ascend_950", ACLSIM_REL_9_2_0_BETA_2 },
    { "aclrtHostMemMapCapabilities", "ascend_950", ACLSIM_REL_9_1_0 },
    { "aclrtHostMemMapCapabilities", "atlas_200i_500_a2", ACLSIM_REL_9_2_0_BETA_2 },
    { "aclrtHostMemMapCapabilities", "atlas_inference", ACLSIM_REL_9_2_0_BETA_2 },
    { "aclrtHostMemMapCapabilities", "atlas_training", ACLSIM_REL_9_2_0_BETA_2 },
    { "aclrtHostUnregister", "ascend_950", ACLSIM_REL_9_2_0_BETA_2 },
};

#endif /* ACLSIM_RELEASES_GENERATED_H */
