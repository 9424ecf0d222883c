// SPDX-License-Identifier: GPL-2.0-or-later
/* capstone, dlopen()ed (capstone_api.h). */
#include "input/elf/capstone_api.h"

#ifdef HAVE_CAPSTONE
#include <dlfcn.h>
#include <string.h>

/* dlsym's object pointer as a function pointer (POSIX allows it; C does not say). */
static void *symbol(void *handle, const char *name, bool *ok)
{
	void *f = dlsym(handle, name);

	*ok &= f != NULL;
	return f;
}

bool ll_capstone_reads_only(unsigned id)
{
	switch (id) {
	case X86_INS_TEST:
	case X86_INS_CMP:
	case X86_INS_BT:
	case X86_INS_COMISS:
	case X86_INS_COMISD:
	case X86_INS_UCOMISS:
	case X86_INS_UCOMISD:
	case X86_INS_PTEST:
		return true;
	default:
		return false;
	}
}

bool ll_capstone_load(struct ll_capstone *cs)
{
	bool ok = true;

	memset(cs, 0, sizeof(*cs));
	cs->handle = dlopen(CAPSTONE_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!cs->handle)
		return false;
	*(void **)&cs->open = symbol(cs->handle, "cs_open", &ok);
	*(void **)&cs->option = symbol(cs->handle, "cs_option", &ok);
	*(void **)&cs->disasm = symbol(cs->handle, "cs_disasm", &ok);
	*(void **)&cs->disasm_iter = symbol(cs->handle, "cs_disasm_iter", &ok);
	*(void **)&cs->malloc = symbol(cs->handle, "cs_malloc", &ok);
	*(void **)&cs->free = symbol(cs->handle, "cs_free", &ok);
	*(void **)&cs->close = symbol(cs->handle, "cs_close", &ok);
	if (!ok)
		ll_capstone_unload(cs);
	return ok;
}

void ll_capstone_unload(struct ll_capstone *cs)
{
	if (cs->handle)
		dlclose(cs->handle);
	memset(cs, 0, sizeof(*cs));
}
#endif
