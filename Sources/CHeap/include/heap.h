#ifndef QUICKACTIONS_HEAP_H
#define QUICKACTIONS_HEAP_H

/* glibc's malloc_trim, which Swift's Glibc module does not declare: gives the free memory at
   the top of every malloc arena (and whole free pages inside them) back to the system. For a
   long-running process after it freed a large transient working set (quickactionsd after
   reading a desktop's installed applications). Returns 1 when memory was released. */
int qa_heap_trim(void);

#endif
