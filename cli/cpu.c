/*
 * cpu: the core model `raptor run` and `raptor record` use, from --cpu /
 * --force-cpu and the ELF's build attributes (isa/attrs.h). The rules are
 * in docs/BOARD.md, "Core model".
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "isa/attrs.h"
#include "isa/model.h"

int cli_parse_model(const char *s, int *model)
{
	enum isa_model m;
	char names[128], running[64];

	isa_model_names(names, sizeof(names), ", ");
	isa_model_running_names(running, sizeof(running), ", ");
	if (isa_model_parse(s, &m))
		return error("--cpu: unknown core '%s' (one of %s)", s, names);
	if (!isa_model_info(m)->runs)
		return error("--cpu %s: %s is not implemented yet (%s are)", s,
			     isa_model_info(m)->title, running);
	*model = (int)m;
	return 0;
}

/*
 * What to try for a program built for em, which does not run yet: the
 * smallest model that runs and covers it ("--cpu m3 runs it on a
 * Cortex-M3"), else the largest that runs, of em's architecture if one
 * does ("--force-cpu m4 ..."): the board's memory map follows the model
 * (the Cortex-M33's is not the others'), so another architecture's core
 * would not even load the program.
 */
static void suggest(enum isa_model em, char *buf, size_t len)
{
	const struct isa_model_info *best = NULL, *ei = isa_model_info(em);

	for (int i = 0; i < ISA_NMODELS; i++) {
		const struct isa_model_info *mi = isa_model_info((enum isa_model)i);

		if (mi->runs && isa_model_covers((enum isa_model)i, em)) {
			snprintf(buf, len, "--cpu %s runs it on a %s", mi->name, mi->title);
			return;
		}
		if (!mi->runs)
			continue;
		if (!best || (mi->arch == ei->arch) > (best->arch == ei->arch) ||
		    ((mi->arch == ei->arch) == (best->arch == ei->arch) &&
		     (mi->arch > best->arch ||
		      (mi->arch == best->arch && mi->dsp + mi->fpu > best->dsp + best->fpu))))
			best = mi;
	}
	snprintf(buf, len, "--force-cpu %s runs it on a %s anyway", best->name, best->title);
}

/* With an explicit --cpu (force: --force-cpu), the ELF's model em known. */
static int check_explicit(const char *path, int force, const char *cpu, enum isa_model m,
			  enum isa_model em, const char *desc)
{
	const char *opt = force ? "--force-cpu" : "--cpu";
	const struct isa_model_info *mi = isa_model_info(m), *ei = isa_model_info(em);

	if (m == em)
		return 0;
	if (isa_model_covers(m, em)) {
		/*
		 * A larger core of the same architecture runs the program as
		 * it is (only CPUID reads differ): say nothing. Across
		 * architectures the exception model and the SCS differ too.
		 */
		if (mi->arch != ei->arch)
			warning("%s: built for %s; running it on a %s as %s says", path, desc,
				mi->title, opt);
		return 0;
	}
	if (force) {
		warning("%s: built for %s; running it on a %s as --force-cpu says, though %s "
			"(those instructions fault)",
			path, desc, mi->title, isa_model_lacks(m, em));
		return 0;
	}
	if (ei->runs)
		return error("%s %s: %s was built for %s, and a %s cannot run all of it: %s "
			     "(--cpu %s runs it; --force-cpu %s runs it on a %s anyway)",
			     opt, cpu, path, desc, mi->title, isa_model_lacks(m, em), ei->name, cpu,
			     mi->title);
	return error("%s %s: %s was built for %s, which this raptor does not run yet, and a "
		     "%s cannot run all of it: %s (--force-cpu %s runs it on a %s anyway)",
		     opt, cpu, path, desc, mi->title, isa_model_lacks(m, em), cpu, mi->title);
}

int cli_pick_model(const char *path, const char *cpu, int force, int *model, const char **from)
{
	const char *opt = force ? "--force-cpu" : "--cpu";
	struct isa_attrs a;
	enum isa_attrs_fit fit = ISA_ATTRS_NONE;
	enum isa_model em = ISA_CORTEX_M3;
	char desc[128], running[64];
	const char *dummy;
	int m = ISA_CORTEX_M3;

	if (!from)
		from = &dummy;
	isa_model_running_names(running, sizeof(running), ", ");
	if (cpu && cli_parse_model(cpu, &m))
		return -1;
	error_quiet(1);
	if (isa_attrs_read(path, &a)) {
		error_quiet(-1);
		warning("%s (the core model is not taken from them)", error_last());
		memset(&a, 0, sizeof(a));
	} else {
		error_quiet(-1);
	}
	fit = isa_attrs_model(&a, &em);
	isa_attrs_describe(&a, desc, sizeof(desc));

	if (cpu) {
		*from = opt;
		*model = m;
		switch (fit) {
		case ISA_ATTRS_MODEL: return check_explicit(path, force, cpu, m, em, desc);
		case ISA_ATTRS_NO_MODEL:
		case ISA_ATTRS_NOT_M:
			warning("%s: built for %s; running it on a %s as %s says", path, desc,
				isa_model_info(m)->title, opt);
			return 0;
		case ISA_ATTRS_NONE: return 0;
		}
		return 0;
	}
	switch (fit) {
	case ISA_ATTRS_NONE:
		*from = "the default: no build attributes";
		*model = ISA_CORTEX_M3;
		return 0;
	case ISA_ATTRS_NOT_M:
		warning("%s: built for %s, not for a Cortex-M; running it on a Cortex-M3 "
			"(--cpu chooses)",
			path, desc);
		*from = "the default: not a Cortex-M program";
		*model = ISA_CORTEX_M3;
		return 0;
	case ISA_ATTRS_NO_MODEL:
		return error("%s: built for %s, which this raptor has no model of (it runs %s; "
			     "--force-cpu NAME runs it anyway)",
			     path, desc, running);
	case ISA_ATTRS_MODEL:
		if (!isa_model_info(em)->runs) {
			char try[96];

			suggest(em, try, sizeof(try));
			return error("%s: built for %s, which this raptor does not run yet (it "
				     "runs %s; %s)",
				     path, desc, running, try);
		}
		*from = "the ELF's build attributes";
		*model = (int)em;
		return 0;
	}
	return 0;
}
