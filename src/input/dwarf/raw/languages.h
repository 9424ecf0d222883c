/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which DW_LANG_* is C, C++ or Rust, and the DIE tags only C++ and Rust
 * write: what scopes.h and the raw scan both ask. No libdw here.
 */
#ifndef LAYOUTLINT_RAW_LANGUAGES_H
#define LAYOUTLINT_RAW_LANGUAGES_H

#include <dwarf.h>
#include <stdbool.h>
#include <stdint.h>

#ifndef DW_LANG_C17
#define DW_LANG_C17 0x2c
#endif

/*
 * Whether TAG is one of the DIEs only C++ or Rust write. Inline:
 * the raw scan asks it of every abbreviation it reads.
 */
static inline bool ll_scope_tag(uint64_t tag)
{
	return tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
	       tag == DW_TAG_inheritance || tag == DW_TAG_template_type_parameter ||
	       tag == DW_TAG_template_value_parameter || tag == DW_TAG_reference_type ||
	       tag == DW_TAG_rvalue_reference_type || tag == DW_TAG_ptr_to_member_type;
}

static inline bool ll_language_is_c(int lang)
{
	return lang == DW_LANG_C89 || lang == DW_LANG_C || lang == DW_LANG_C99 ||
	       lang == DW_LANG_C11 || lang == DW_LANG_C17;
}

static inline bool ll_language_is_cxx(int lang)
{
	/* 0x2a, 0x2b: C++17 and C++20, which DWARF 6 names and producers already write. */
	return lang == DW_LANG_C_plus_plus || lang == DW_LANG_C_plus_plus_03 ||
	       lang == DW_LANG_C_plus_plus_11 || lang == DW_LANG_C_plus_plus_14 ||
	       lang == 0x2a || lang == 0x2b;
}

static inline bool ll_language_is_rust(int lang)
{
	return lang == DW_LANG_Rust;
}

#endif
