#define _GNU_SOURCE
#include "quickactions_file_exchange.h"

#include <fcntl.h>
#include <stdio.h>

int qa_rename_exchange(const char *first, const char *second) {
    return renameat2(AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE);
}

int qa_rename_no_replace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}
