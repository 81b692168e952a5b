# bpfloop-lab: the one entry point. Each target names its inputs and calls
# one program; the logic lives in those programs. 'make help' lists them.

WORK ?= $(CURDIR)/work
override WORK := $(abspath $(WORK))
export WORK
# Debian puts bpftool in /usr/sbin, which a user's PATH (and an ssh
# login's) does not have.
ifeq ($(filter /usr/sbin,$(subst :, ,$(PATH))),)
export PATH := $(PATH):/usr/sbin:/sbin
endif
BIN := $(WORK)/bin
SUITE := $(WORK)/suite
INITRAMFS := $(WORK)/initramfs/guest.cpio
REF ?=

CC := gcc
CFLAGS := -O2 -Wall -Wextra -Werror=implicit-function-declaration
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_x86 -I/usr/include/x86_64-linux-gnu -Wall

.DEFAULT_GOAL := help
.PHONY: help setup preflight deps prepare host-tools suite initramfs kernel boot run test lab check \
	grade grade-merge grade-fan-out bundle unbundle bench-first bench-grade walk handin handbook lab-tables clean-builds distclean

help: ## this list
	@echo "bpfloop-lab: re-implement bpf_loop() in Linux 6.1, boot it in QEMU, get graded."
	@echo
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | \
		awk -F'\t' '{ printf "  make %-14s %s\n", $$1, $$2 }'
	@echo
	@echo "Variables: WORK=$(WORK) (the work folder), REF= (a commit of the work"
	@echo "tree: base, upstream, solution/NN), ACCEL=kvm|tcg, JOBS_BUILD=n."
	@echo "make grade: SUBMISSIONS=dir OUT=dir RUBRIC=file EXTRA_TESTS=prog JOBS=n (default: a worker per core, at most 4, as the disk holds) FORCE=1."

setup: ## install packages, prepare the kernel work tree, build the kit's tools and base once
	@lib/setup-deps
	@kernel-base/prepare
	@echo "==> building the kit's programs, the in-guest test suite and the guest's initramfs" >&2
	@$(MAKE) -s host-tools suite initramfs
	@kbuild/kernel-build --trusted

preflight: ## check this machine can grade (sandbox, QEMU, memory, tools), as make grade and make check do first; JOBS=n
	@lib/preflight $(if $(JOBS),--jobs "$(JOBS)") >/dev/null

deps: ## install the missing Debian packages only
	@lib/setup-deps

prepare: ## (re)make the kernel work tree: tags upstream and base, solution branches
	@kernel-base/prepare

# The kit's host programs, in C.
HOST_TOOLS := $(BIN)/vm-watch $(BIN)/unframe $(BIN)/excerpt $(BIN)/config-check \
	$(BIN)/first-error $(BIN)/gen_init_cpio $(BIN)/ktap $(BIN)/helper-ids $(BIN)/linkcheck \
	$(BIN)/intake $(BIN)/grade-report $(BIN)/plan $(BIN)/safe-copy $(BIN)/bench-first-report \
	$(BIN)/console-check $(BIN)/walk-stamp $(BIN)/yaml-check $(BIN)/reap
host-tools: $(HOST_TOOLS)

$(BIN)/%: vm/%.c | $(BIN)
	$(CC) $(CFLAGS) -o $@ $<
$(BIN)/%: lib/%.c | $(BIN)
	$(CC) $(CFLAGS) -o $@ $<
$(BIN)/%: kbuild/%.c | $(BIN)
	$(CC) $(CFLAGS) -o $@ $<
$(BIN)/%: grading/pipeline/%.c | $(BIN)
	$(CC) $(CFLAGS) -o $@ $<
# plan and grade-report read the test registry with one parser;
# grade-report's outputs are the writers of grading/pipeline/report/, every
# .c there (a new output is a new file).
REGISTRY := grading/pipeline/registry.c grading/pipeline/registry.h
REPORT := $(wildcard grading/pipeline/report/*.c) grading/pipeline/report/report.h grading/pipeline/ktap.h
$(BIN)/plan: grading/pipeline/plan.c $(REGISTRY) | $(BIN)
	$(CC) $(CFLAGS) -o $@ $< grading/pipeline/registry.c
$(BIN)/grade-report: grading/pipeline/grade-report.c $(REGISTRY) $(REPORT) | $(BIN)
	$(CC) $(CFLAGS) -o $@ $< grading/pipeline/registry.c $(filter %.c,$(REPORT))
$(BIN)/%: grading/instructor/%.c | $(BIN)
	$(CC) $(CFLAGS) -o $@ $<
$(BIN)/%: kernel-base/%.c | $(BIN)
	$(CC) $(CFLAGS) -o $@ $<
$(BIN)/%: docs/%.c | $(BIN)
	$(CC) $(CFLAGS) -o $@ $<
$(BIN)/yaml-check: docs/yaml-check.c | $(BIN)
	$(CC) $(CFLAGS) -o $@ $< -lyaml
# The kernel's own cpio writer, from the pristine source.
$(BIN)/gen_init_cpio: | $(BIN)
	@git -C $(WORK)/linux show upstream:usr/gen_init_cpio.c >$@.c 2>/dev/null || \
		{ echo "error: no kernel work tree in $(WORK)/linux: run 'make setup'" >&2; exit 1; }
	$(CC) -O2 -o $@ $@.c
$(BIN):
	@mkdir -p $@

# The in-guest suite: BPF objects -> skeletons -> one static binary. Its
# table of tests comes from grading/tests.list; the host's judge is the
# same tests built without libbpf, so that it cannot load a BPF program:
# the linker drops the RUN side, and would fail if a JUDGE reached for it.
SUITE_PROGS := $(wildcard grading/suite/progs/*.bpf.c)
SUITE_OBJS := $(patsubst grading/suite/progs/%.bpf.c,$(SUITE)/%.bpf.o,$(SUITE_PROGS))
SUITE_SKELS := $(SUITE_OBJS:.bpf.o=.skel.h)
SUITE_TESTS := $(filter-out grading/suite/main.c grading/suite/judge.c grading/suite/kernel.c,\
	$(wildcard grading/suite/*.c))
# Lab 7's precision test loads lab 4's bpf_loop programs as the kit's
# reference writes them (solution/07 of the work tree, made by make setup
# from solutions/): their skeletons join the suite's.
LAB7_REF := $(shell git -C $(WORK)/linux rev-parse -q --verify 'solution/07^{commit}' 2>/dev/null)
LAB7_SRC := $(SUITE)/lab4-$(or $(LAB7_REF),none)
LAB7_LAB4 := pyperf600 strobemeta
SUITE_SKELS += $(LAB7_LAB4:%=$(SUITE)/lab7_%.skel.h)
SUITE_HDRS := grading/suite/suite.h grading/guest/guest.h $(SUITE)/tests.h $(SUITE)/expect.h $(SUITE_SKELS)
suite: $(SUITE)/bpfloop-suite $(BIN)/suite-judge ## build the in-guest test suite and its judge

$(SUITE)/%.bpf.o: grading/suite/progs/%.bpf.c $(wildcard grading/suite/progs/*.h) | $(SUITE)
	clang $(BPF_CFLAGS) -c $< -o $@
$(SUITE)/%.skel.h: $(SUITE)/%.bpf.o
	bpftool gen skeleton $< name $* >$@.tmp && mv $@.tmp $@
$(SUITE)/tests.h: grading/tests.list $(BIN)/plan | $(SUITE)
	$(BIN)/plan --tests $< header >$@.tmp && mv $@.tmp $@
# The verdicts the programs must get, from the REFUSED() lines beside them.
$(SUITE)/expect.h: grading/suite/expect-table $(SUITE_PROGS) | $(SUITE)
	grading/suite/expect-table $(SUITE_PROGS) >$@.tmp && mv $@.tmp $@
$(SUITE)/bpfloop-suite: $(SUITE_TESTS) grading/suite/main.c grading/suite/kernel.c grading/guest/guest.c $(SUITE_HDRS)
	$(CC) $(CFLAGS) -static -I$(SUITE) -Igrading/guest -o $@ $(SUITE_TESTS) grading/suite/main.c \
		grading/suite/kernel.c grading/guest/guest.c -lbpf -lelf -lz -lzstd
$(BIN)/suite-judge: $(SUITE_TESTS) grading/suite/judge.c grading/guest/guest.c $(SUITE_HDRS) \
		grading/pipeline/ktap.h | $(BIN)
	$(CC) $(CFLAGS) -ffunction-sections -fdata-sections -Wl,--gc-sections -I$(SUITE) -Igrading/guest \
		-o $@ $(SUITE_TESTS) grading/suite/judge.c grading/guest/guest.c
$(SUITE):
	@mkdir -p $@
$(LAB7_SRC)/.taken: | $(SUITE)
	@test -n "$(LAB7_REF)" || { echo "error: no branch solution/07 in the work tree $(WORK)/linux: run 'make setup'" >&2; exit 1; }
	@rm -rf $(SUITE)/lab4-* && mkdir -p $(dir $@)
	@for f in pyperf.h strobemeta.h pyperf600_bpf_loop.c strobemeta_bpf_loop.c; do \
		git -C $(WORK)/linux show $(LAB7_REF):tools/testing/selftests/bpf/progs/$$f >$(dir $@)$$f || exit 1; \
	done
	@touch $@
# The selftests' own clang flags, as grading/pipeline/guest-build --selftests-flags
# has them (their warnings are upstream's, not shown here).
$(SUITE)/lab7_%.bpf.o: $(LAB7_SRC)/.taken grading/guest/selftests-bpf.flags
	clang $(shell cat grading/guest/selftests-bpf.flags) -w -I/usr/include/x86_64-linux-gnu \
		-c $(LAB7_SRC)/$*_bpf_loop.c -o $@

# The host's judge goes with the guest's suite: a suite rebuilt from a new
# tests.list beside an old judge would have every run refused.
initramfs: $(INITRAMFS) $(BIN)/suite-judge ## the guest's initramfs: busybox, /init, the suite
$(INITRAMFS): vm/init vm/profile vm/mkinitramfs $(SUITE)/bpfloop-suite | $(BIN)/gen_init_cpio
	@mkdir -p $(dir $@)
	vm/mkinitramfs $@ $(SUITE)/bpfloop-suite:/usr/bin/bpfloop-suite

kernel: ## build the work tree's kernel (or REF=commit) and print the bzImage path
	@kbuild/kernel-build $(if $(REF),--ref $(REF))

boot: initramfs ## build, then boot it with a shell in the guest (REF= to pick a commit)
	@k=$$(kbuild/kernel-build $(if $(REF),--ref $(REF))) && vm/qemu-run --kernel "$$k" --shell

run: initramfs ## build, boot and run CMD='...' in the guest (REF= to pick a commit)
	@test -n "$(CMD)" || { echo "error: say what to run: make run CMD='bpfloop-suite --lab 0'" >&2; exit 2; }
	@k=$$(kbuild/kernel-build $(if $(REF),--ref $(REF))) && vm/qemu-run --kernel "$$k" --cmd "$(CMD)"

lab: ## start or resume lab N (make lab N=1; FROM=mine starts from your own previous lab)
	@labs/start-lab "$(N)" "$(FROM)"

check: initramfs ## build the work tree, boot it, run the tests of labs 0..k, k being the lab branch's number (N=, ONLY=)
	@grading/student/check "$(N)" "$(ONLY)"

grade: ## grade every submission in SUBMISSIONS= (default: the samples) into OUT= (REPLAY=score: rescore only; STUDENTS=a,b: those again)
	@grading/instructor/grade $(if $(SUBMISSIONS),--submissions "$(SUBMISSIONS)") $(if $(OUT),--out "$(OUT)") \
		$(if $(RUBRIC),--rubric "$(RUBRIC)") $(if $(EXTRA_TESTS),--extra-tests "$(EXTRA_TESTS)") \
		$(if $(JOBS),--jobs "$(JOBS)") $(if $(filter 1 yes,$(FORCE)),--force) $(if $(REPLAY),--from "$(REPLAY)") \
		$(if $(STUDENTS),--students "$(STUDENTS)")

bench-first: ## a new user's first contact: make grade, a first lab 3 grade, make check after an edit, from an empty work folder and cache (work/bench/first.md)
	@grading/instructor/bench-first
walk: ## a student's path through the labs as the texts give it (LABS="0 1 2 3" by default, or "4 5 6 7"): every command run, its quoted output checked, each wait and silence timed (work/walk/walk.md)
	@docs/walk $(if $(LABS),--labs "$(LABS)")
bench-grade: ## measure make grade's submissions per hour here (N=6 synthetic submissions, JOBS=2, HEADERS=real, own, comment or same)
	@grading/instructor/bench-grade "$(or $(N),6)" "$(or $(JOBS),2)" "$(or $(HEADERS),real)"

grade-merge: ## one gradebook from the OUT folders of several machines: RUNS="a b" OUT=dir
	@grading/instructor/merge-runs --out "$(OUT)" $(if $(RUBRIC),--rubric "$(RUBRIC)") $(RUNS)

grade-fan-out: ## grade one class over several work folders or machines at once (GNU parallel), then merge: WORKS="a b" or HOSTS="pc1 pc2" [REMOTE_KIT= SSH=], OUT=dir [SUBMISSIONS= JOBS= RUBRIC= EXTRA_TESTS=]
	@grading/instructor/fan-out --works "$(WORKS)" --hosts "$(HOSTS)" $(if $(REMOTE_KIT),--remote-kit "$(REMOTE_KIT)") \
		$(if $(SSH),--ssh "$(SSH)") --out "$(OUT)" $(if $(SUBMISSIONS),--submissions "$(SUBMISSIONS)") \
		$(if $(JOBS),--jobs "$(JOBS)") $(if $(RUBRIC),--rubric "$(RUBRIC)") $(if $(EXTRA_TESTS),--extra-tests "$(EXTRA_TESTS)")

bundle: ## for a room with a bad network: the packages, the trusted build, the compiler cache and the kit's kernels in one file (BUNDLE=file, default work/bundle/bpfloop-lab.bundle.tar)
	@lib/bundle make $(if $(BUNDLE),--out "$(BUNDLE)")
unbundle: ## on a student's machine, no network needed: check and unpack BUNDLE=file, then set up from it
	@lib/bundle unpack --in "$(BUNDLE)"

handin: ## package your lab branch for your instructor (NAME=you TIME=hours)
	@grading/student/handin "$(NAME)" "$(TIME)"

test: ## the kit's own tests (sets up first if needed); ends with "N passed, N failed"
	@tests/run

handbook: $(BIN)/linkcheck ## render handbook.md and the lab texts to HTML (work/handbook/index.html)
	@docs/render
lab-tables: ## write each lab text's table of tests from grading/tests.list
	@docs/lab-tables

clean-builds: ## delete build folders, scratch trees and kept kernels (the work tree stays)
	rm -rf $(WORK)/build $(WORK)/slots $(WORK)/kernels $(WORK)/runs

distclean: ## delete the whole work folder, work tree included
	rm -rf $(WORK)
.SECONDARY:

# Each host-side lab's tools, in its own folder: every grading/lab*/lab.mk.
# KTAP's reader goes with its one writer, grading/pipeline/ktap.h.
$(BIN)/ktap: grading/pipeline/ktap.h
include $(sort $(wildcard grading/lab*/lab.mk))

upstream-series: ## lab 6's upstream fix series on Debian's linux-source-6.12: git am, the selftest alone, checkpatch --strict (work/upstream-fix/check/)
	@solutions/06-inlining/upstream-fix/check
upstream-fix: initramfs ## lab 6's upstream fix on Debian's 6.12, in QEMU: its selftest before the fix (fails) and after (passes) (work/upstream-fix/report.md)
	@solutions/06-inlining/upstream-fix/run
.PHONY: upstream-series upstream-fix
