/* Generated from spec 5d3dcfc70eb619e5 by codegen; do not edit. Regenerate: python -m codegen generate */
/* The official include path of the ACL runtime API ("acl/acl.h") for programs built
 * against the generated declarations: everything it offers is in acl_hostmem.h, under
 * the official names. Against a CANN install, -I$ASCEND_HOME_PATH/include finds the
 * official acl/acl.h instead and the same program compiles unchanged. */
#ifndef ACL_SHIM_GENERATED_H
#define ACL_SHIM_GENERATED_H

#include "../acl_hostmem.h"

#endif /* ACL_SHIM_GENERATED_H */
