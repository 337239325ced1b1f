/* What quickactions-host needs of Linux that Swift's Glibc module does not export. */
#ifndef QUICKACTIONS_HOST_SUPPORT_H
#define QUICKACTIONS_HOST_SUPPORT_H

/* prctl(PR_SET_PDEATHSIG, signal): the kernel sends `signal` to this process when the
 * thread that started it ends. Returns 0, or -1 with errno set. */
int qa_set_parent_death_signal(int signal);

#endif
