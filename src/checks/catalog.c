// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The catalog of checks: the one place a check is declared. Everything that
 * lists checks (the rules language's 'allow', baselines, the SARIF rule
 * table, the text summary, --list-checks, the solver's notion of what an
 * order can fix, the man page and the shell completion, which a test keeps
 * in step) reads it from here, in this order; and every finding starts at
 * its check's level here (ll_check_finding_add).
 */
#include "checks/catalog.h"

#include <string.h>

static const struct ll_check_def catalog[LL_CHECK_COUNT] = {
	[LL_CHECK_MIXED_CACHELINE] = {
		.id = "mixed-cacheline", .sarif_name = "MixedCacheline", .level = LL_LEVEL_ERROR,
		.fixable_by_reorder = true, .ordered_pair = true,
		.summary = "A cacheline holds both read-mostly and write-hot members.",
		.description = "One cacheline of the struct holds at least one member the rules tag read-mostly and "
			"one they tag write-hot. Every write to the write-hot member takes the line away from "
			"the other CPUs' caches, so the readers of the read-mostly members miss on a line they "
			"never write (false sharing).",
		.help = "Give the write-hot members a cacheline of their own, away from the read-mostly ones: "
			"reorder the struct (layoutlint --suggest proposes an order) or start the hot group on "
			"a new line (____cacheline_aligned_in_smp, __cacheline_group_begin). To accept one "
			"case, add 'allow mixed-cacheline MEMBER' to the rules with the reason in a comment.",
	},
	[LL_CHECK_WRITE_DOMAINS] = {
		.id = "write-domains", .sarif_name = "WriteDomains", .level = LL_LEVEL_ERROR,
		.fixable_by_reorder = true,
		.summary = "A cacheline holds write-hot members of different write domains.",
		.description = "One cacheline holds write-hot members that the rules assign to different domains "
			"(write-hot:rx, write-hot:tx...): the writers of one domain keep invalidating the line "
			"for the writers of the other.",
		.help = "Put each domain's write-hot members on lines of their own. To accept one case, add "
			"'allow write-domains MEMBER' to the rules.",
	},
	[LL_CHECK_SPLIT_HOT] = {
		.id = "split-hot", .sarif_name = "SplitHot", .level = LL_LEVEL_WARNING,
		.fixable_by_reorder = true,
		.summary = "A hot member straddles a cacheline boundary although it fits in one line.",
		.description = "A read-mostly or write-hot member crosses a cacheline boundary although it is small "
			"enough to fit in one line: every access touches two lines, and an atomic on it is a "
			"split lock. Error for a write-hot member of 16 bytes or less that one locked "
			"instruction can cover (a scalar, or a wrapper of one such as atomic_t), warning "
			"otherwise.",
		.help = "Align the member, or reorder so that it starts where it fits in one line. To accept "
			"one case, add 'allow split-hot MEMBER' to the rules.",
	},
	[LL_CHECK_STALE_RULE] = {
		.id = "stale-rule", .sarif_name = "StaleRule", .level = LL_LEVEL_ERROR,
		.names_pattern = true,
		.summary = "A rules pattern matches no member.",
		.description = "A non-optional pattern in the rules matches no member of the struct, so a renamed or "
			"removed field would silently lose its tag.",
		.help = "Rename the pattern to follow the member, remove it, or mark a config-dependent "
			"member optional with '?'.",
	},
	[LL_CHECK_PLACEMENT] = {
		.id = "placement", .sarif_name = "PlacementDependent", .level = LL_LEVEL_WARNING,
		.summary = "Findings depend on where an instance of the struct starts.",
		.description = "With 'align type' or 'align N' below the cacheline size, an instance can start at "
			"several offsets within a line, and some findings hold at some of them only; which one "
			"a given object gets is luck.",
		.help = "Align the struct to the cacheline (____cacheline_aligned, SLAB_HWCACHE_ALIGN) or make "
			"the layout clean at every start offset.",
	},
	[LL_CHECK_GROUP_SPAN] = {
		.id = "group-span", .sarif_name = "GroupSpan", .level = LL_LEVEL_WARNING,
		.summary = "A kernel cacheline group touches more cachelines than its bytes need.",
		.description = "The members between __cacheline_group_begin__X and __cacheline_group_end__X, or "
			"the members a rules 'group' names, touch more cachelines than their total size "
			"requires: a path that reads them together misses on more lines than it must.",
		.help = "Reorder or align the group so that it starts on a cacheline boundary, and keep "
			"its members together.",
	},
	[LL_CHECK_GROUP_MEMBER] = {
		.id = "group-member", .sarif_name = "GroupMember", .level = LL_LEVEL_WARNING,
		.summary = "A member the rules tag sits in the wrong kernel cacheline group, or in none.",
		.description = "A member the rules tag hot lies inside a __cacheline_group whose name says otherwise "
			"(a write-hot member in a read group), or outside every group of its kind, so the "
			"kernel's own grouping and the rules disagree.",
		.help = "Move the member between the markers of the group that matches its tag, or fix the "
			"rules (or the net_cachelines table they came from).",
	},
	[LL_CHECK_ARRAY_NEIGHBOURS] = {
		.id = "array-neighbours", .sarif_name = "ArrayNeighbours", .level = LL_LEVEL_WARNING,
		.summary = "A write-hot array puts several of its elements on one cacheline.",
		.description = "A member (or variable) tagged write-hot is an array whose elements are "
			"smaller than a cacheline, so several elements share each line: when each element "
			"has its own writer (an array indexed by CPU, queue or node), the writers false-share "
			"the line although no two of them touch the same element.",
		.help = "If each element has its own writer, align the element type to the line "
			"(____cacheline_aligned on the element struct) or make it per-CPU data. If one "
			"writer updates them all, say so: 'allow array-neighbours MEMBER'.",
	},
	[LL_CHECK_ADJACENT_LINES] = {
		.id = "adjacent-lines", .sarif_name = "AdjacentLines", .level = LL_LEVEL_WARNING,
		.summary = "Two lines of one aligned pair hold members that would be false sharing on "
			"one line.",
		.description = "With --adjacent-lines: the adjacent-line prefetcher (Intel's spatial "
			"prefetcher) fetches a line's aligned partner with it, so a read-mostly member and "
			"a write-hot one, or write-hot members of clashing domains, on the two lines of one "
			"aligned pair still trade the pair between CPUs (perf c2c --double-cl shows it). "
			"The pairs are those of an instance that starts on a pair boundary.",
		.help = "Keep the write-hot members a whole pair away from the others (align the hot "
			"group to twice the line size, as 'net: align sk_refcnt on 128 bytes boundary' "
			"did). To accept one case, add 'allow adjacent-lines MEMBER' to the rules.",
	},
	[LL_CHECK_RULE_DRIFT] = {
		.id = "rule-drift", .sarif_name = "RuleDrift", .level = LL_LEVEL_WARNING,
		.summary = "A profile contradicts the rules: a read-mostly member is written, a "
			"write-hot one never is, or a hot member is untagged.",
		.description = "A perf data-type profile (--profile) measured the struct, and a member's "
			"tag disagrees with it: read-mostly but written in at least --measured-writes "
			"percent of its samples, write-hot but never written, or untagged (or cold) "
			"but taking at least --measured-hot percent of the struct's samples. Rules "
			"that no longer say what the code does check the wrong pairs. Loads and "
			"stores come from the events or from the sampled instruction, so they are "
			"approximate (skid).",
		.help = "Fix the tag, or check that the profile ran the workload the rules are about "
			"(layoutlint --write-rules FILE writes the tags the profile implies). To "
			"accept one case, add 'allow rule-drift MEMBER' to the rules.",
	},
	[LL_CHECK_MEASURED_MIXED] = {
		.id = "measured-mixed", .sarif_name = "MeasuredMixed", .level = LL_LEVEL_WARNING,
		.fixable_by_reorder = false, .ordered_pair = true,
		.summary = "A profile shows writes to one member and reads of another on one "
			"cacheline.",
		.description = "With no rules at all: on one cacheline, a member the profile measured as "
			"written (at least --measured-writes percent of its samples) and another it "
			"measured as only read, both hot (at least --measured-hot percent of the "
			"struct's samples). That is false sharing seen in a run, not predicted from "
			"tags. Approximate: software events sample instructions, and loads and "
			"stores are read from the sampled instruction.",
		.help = "Tag the members (--write-rules writes tags from the profile) and move the "
			"written ones to a line of their own; mixed-cacheline and --suggest then "
			"apply. To accept one case, add 'allow measured-mixed MEMBER' to the rules.",
	},
	[LL_CHECK_WRITTEN_READ_MOSTLY] = {
		.id = "written-read-mostly", .sarif_name = "WrittenReadMostly", .level = LL_LEVEL_ERROR,
		.summary = "The code stores a member the rules or the kernel's groups tag read-mostly.",
		.description = "With --access: the image's machine code stores the member (or updates it "
			"atomically) in a function that is not one of the struct's constructors. A "
			"read-mostly member that is written at run time invalidates its line for every "
			"reader, so the tag and the layout built on it are wrong (netdev kept tcp_sock's "
			"rcv_tstamp in a read-mostly group while tcp_ack() wrote it). The notes name each "
			"store's function and source line.",
		.help = "Fix the tag (move the member to a write group, or tag it write-hot), or, if the "
			"store is initialisation, name the function with 'constructors GLOB' in the rules. "
			"To accept one case, add 'allow written-read-mostly MEMBER' to the rules.",
	},
	[LL_CHECK_UNWRITTEN_WRITE_HOT] = {
		.id = "unwritten-write-hot", .sarif_name = "UnwrittenWriteHot", .level = LL_LEVEL_WARNING,
		.summary = "Nothing in the code writes a member the rules tag write-hot.",
		.description = "With --access: no function of the image stores the member or updates it "
			"atomically outside the struct's constructors. A stale write-hot tag costs a "
			"cacheline of its own for nothing. The analyzer types most but not all memory "
			"operands (the message gives the coverage), so a write through an untyped pointer "
			"may be missed.",
		.help = "Drop the tag or tag the member read-mostly, after checking the source for a write "
			"the analyzer could not type. To accept one case, add 'allow unwritten-write-hot "
			"MEMBER' to the rules.",
	},
	[LL_CHECK_STATIC_WRITE_DOMAINS] = {
		.id = "static-write-domains", .sarif_name = "StaticWriteDomains", .level = LL_LEVEL_NOTE,
		.summary = "Two members of one cacheline are written by disjoint sets of functions.",
		.description = "With --access: the functions that write one member at run time and those "
			"that write the other have none in common. They are candidate write domains: if "
			"those functions run on different CPUs, the line bounces between them.",
		.help = "If the writers do run apart, give each domain its own line (write-hot:DOMAIN in the "
			"rules, and --suggest). To accept one case, add 'allow static-write-domains MEMBER' "
			"to the rules.",
	},
	[LL_CHECK_LAYOUT_CHANGE] = {
		.id = "layout-change", .sarif_name = "LayoutChange", .level = LL_LEVEL_WARNING,
		.summary = "Under --against or --baseline, a struct's layout changed in a way a gate should show.",
		.description = "Compared with the reference (--against's binary, or the layouts a "
			"--baseline file records), the struct's size crossed a "
			"kmalloc size class (8, 16, 32, 64, 96, 128, 192, 256, 512 ... 8192 bytes, then "
			"page orders: Linux's kmalloc_info[] on x86_64), it takes more cachelines, or a "
			"member the rules tag moved to another cacheline. Such a change can come from a "
			"struct it embeds by value, in another header, and make no new pair of tags "
			"meet, so no other check sees it. The message names the sizes and lines before "
			"and after.",
		.help = "Check that the growth or the move is meant (pahole -C shows the new layout); "
			"move the tagged members back to their lines or accept it. --layout-change=error "
			"makes it fail a gate, --layout-change=off drops it.",
	},
	[LL_CHECK_GROUP_ASSERT] = {
		.id = "group-assert", .sarif_name = "GroupAssert", .level = LL_LEVEL_ERROR,
		.summary = "A kernel group assert fails on a binary, or its size constant is stale.",
		.description = "With --srcdir: the CACHELINE_ASSERT_GROUP_SIZE(struct S, GROUP, N) and "
			"CACHELINE_ASSERT_GROUP_MEMBER(struct S, GROUP, MEMBER) of the tree, read by a "
			"plain scan of the C, evaluated on each binary against its __cacheline_group "
			"markers. Error: the group is larger than N there, or MEMBER lies outside the "
			"group (the build breaks on that architecture or configuration, as tcp_sock_write_rx "
			"did on 32-bit ARM). Warning: N exceeds the group's largest size over all the "
			"binaries given by at least one alignment unit (the largest alignment of its "
			"members), with the value to write; or the struct there has no such group or "
			"member.",
		.help = "Lint every architecture the assert must hold on (--binary once per image), move "
			"the member or shrink the group, or set N to the value given.",
	},
	[LL_CHECK_DOC_DRIFT] = {
		.id = "doc-drift", .sarif_name = "DocDrift", .level = LL_LEVEL_WARNING,
		.summary = "A net_cachelines table and its struct disagree on which members there are.",
		.description = "With --net-cachelines or --srcdir: a member of the struct in this binary that "
			"its Documentation/networking/net_cachelines table does not list (located at the "
			"member's declaration), or a row of the table that names no member, even as a "
			"macro for a member path the struct's header defines (located at the row). The "
			"table is the third copy of the struct's layout intent and falls behind it.",
		.help = "Add or remove the rows (--write-net-cachelines prints the table updated for the "
			"binary), or fix the name.",
	},
	[LL_CHECK_RANDSTRUCT] = {
		.id = "randstruct", .sarif_name = "Randstruct", .level = LL_LEVEL_NOTE,
		.summary = "The struct's layout may be randomized per build (randstruct).",
		.description = "The source marks the struct __randomize_layout (or has members between "
			"randomized_struct_fields_start and _end), or it holds only function pointers, "
			"which CONFIG_RANDSTRUCT randomizes unmarked: the layout checked is this "
			"binary's, and a build with another seed lays it out otherwise. With --config "
			"naming RANDSTRUCT_PERFORMANCE, the notes give the runs of members the plugin "
			"may reorder within a cacheline.",
		.help = "Check the layout of the build that runs (its own vmlinux), or keep the hot "
			"members outside the randomized part.",
	},
};

const struct ll_check_def *ll_catalog(size_t *n)
{
	*n = sizeof(catalog) / sizeof(catalog[0]);
	return catalog;
}

const struct ll_check_def *ll_check_find(const char *id)
{
	for (size_t i = 0; i < sizeof(catalog) / sizeof(catalog[0]); i++)
		if (strcmp(catalog[i].id, id) == 0)
			return &catalog[i];
	return NULL;
}

int ll_check_index(const char *id)
{
	const struct ll_check_def *d = ll_check_find(id);

	return d ? (int)(d - catalog) : -1;
}

bool ll_check_fixable_by_reorder(const char *id)
{
	const struct ll_check_def *d = ll_check_find(id);

	return d && d->fixable_by_reorder;
}

/* Every check has its entry: a gap would be a zeroed entry without an id. */
_Static_assert(sizeof(catalog) / sizeof(catalog[0]) == LL_CHECK_COUNT, "one entry a check");

const char *ll_check_id(enum ll_check check)
{
	return catalog[check].id;
}

bool ll_check_is(const char *rule, enum ll_check check)
{
	return rule && strcmp(rule, catalog[check].id) == 0;
}

bool ll_check_allowed(const struct ll_allow *allows, size_t n, enum ll_check check,
		      const char *path)
{
	return ll_allowed(allows, n, catalog[check].id, path);
}

struct ll_finding *ll_check_finding_add(struct ll_findings *out, enum ll_check check,
					int64_t cacheline)
{
	return ll_finding_add(out, catalog[check].id, catalog[check].level, cacheline);
}
