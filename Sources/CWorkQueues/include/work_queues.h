#ifndef QUICKACTIONS_WORK_QUEUES_H
#define QUICKACTIONS_WORK_QUEUES_H

/* What Swift code on libdispatch's C API (WorkQueues) cannot reach itself: Swift marks
 * dispatch_release unavailable ("Can't be used with ARC", its Dispatch overlay releases
 * objects itself), and cannot take the address of the source types behind the
 * DISPATCH_SOURCE_TYPE_* macros. */

/* dispatch_release(object); NULL is ignored. */
void qa_dispatch_release(void *object);

/* DISPATCH_SOURCE_TYPE_TIMER, for dispatch_source_create. */
const void *qa_dispatch_source_type_timer(void);

#endif
