#define _GNU_SOURCE
#include "quickactions_host_support.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

int qa_set_parent_death_signal(int signal) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
}

int qa_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int qa_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

static void qa_no_action(int signal) {
    (void)signal;
}

int qa_catch_signal_without_action(int signal) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = qa_no_action;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(signal, &action, NULL);
}

const char *qa_loaded_library_path(const char *soname) {
    void *handle = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
    if (handle == NULL) {
        return NULL;
    }
    struct link_map *map = NULL;
    const char *path = NULL;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map != NULL && map->l_name != NULL && map->l_name[0] == '/') {
        path = map->l_name;
    }
    /* Only drops the reference RTLD_NOLOAD took: the library was loaded before and stays. */
    dlclose(handle);
    return path;
}

int qa_lower_thread_priority(int increment) {
    pid_t thread = gettid();
    errno = 0;
    int current = getpriority(PRIO_PROCESS, (id_t)thread);
    if (current == -1 && errno != 0) {
        return -1;
    }
    return setpriority(PRIO_PROCESS, (id_t)thread, current + increment);
}

int qa_reserve_descriptor_table(int count) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) {
        return -1;
    }
    if (limit.rlim_cur != RLIM_INFINITY && (rlim_t)count > limit.rlim_cur) {
        count = (int)limit.rlim_cur;
    }
    if (count <= 1) {
        return 0;
    }
    int source = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (source < 0) {
        return -1;
    }
    /* The lowest free descriptor at or above count - 1: the kernel grows the table to hold it
     * (tables grow in powers of two and never shrink), then it is closed again. */
    int reserved = fcntl(source, F_DUPFD_CLOEXEC, count - 1);
    int saved = errno;
    close(source);
    if (reserved < 0) {
        /* EMFILE: every descriptor from count - 1 up to the limit is open, so the table
         * already holds them. */
        if (saved == EMFILE) {
            return 0;
        }
        errno = saved;
        return -1;
    }
    close(reserved);
    return 0;
}
