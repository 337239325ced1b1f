#include "work_queues.h"

/* Declared here as libdispatch's headers declare them (dispatch/object.h, source.h) rather
 * than through <dispatch/dispatch.h>, which needs the toolchain's include folder and -fblocks:
 * dispatch_release takes a dispatch_object_t, a transparent union of object pointers, so it is
 * passed as a pointer; a source type is an exported object whose address names it.
 * libdispatch is linked through CDispatch. */
struct dispatch_source_type_s;
extern const struct dispatch_source_type_s _dispatch_source_type_timer;
extern void dispatch_release(void *object);

void qa_dispatch_release(void *object) {
    if (object) dispatch_release(object);
}

const void *qa_dispatch_source_type_timer(void) {
    return &_dispatch_source_type_timer;
}
