// gbench.cc — the C interface of harness/gbench.h over Google Benchmark's public API
// (benchmark/benchmark.h; compiled with -Werror against Debian's libbenchmark-dev 1.7.1 and
// against 1.8.3 and 1.9.5 built from source; the build checks for 1.7 or later). The
// project's only C++ file: everything else is C17.
//
// Two things here go beyond plain forwarding:
//  - Names: Google Benchmark appends "/iterations:N/repeats:R" and "/manual_time" to the
//    names; the reporters are wrapped to drop them, so outputs show the names as registered.
//  - Reporters: one display reporter is always handed in (the library deletes a default one
//    it made itself, so a second run would crash), and it also feeds the output file's
//    reporter, so ecsbench owns --benchmark_out without touching the library's flags.
//
// Nothing here may throw into C: every entry point catches.
#include "harness/gbench.h"

#include <benchmark/benchmark.h>

#include <exception>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace {

struct Entry {
    std::string name;
    ecsb_gb_fn fn;
    void *ctx;
};

std::vector<std::unique_ptr<Entry>> entries;

// ecsb_gb_defer_output's hooks (row is null when the output is not deferred).
void (*defer_row)(void *, ecsb_gb_row *);
void (*defer_done)(void *);
void *defer_ctx;

benchmark::State &state_of(ecsb_gb_state *st) { return *reinterpret_cast<benchmark::State *>(st); }
const benchmark::State &state_of(const ecsb_gb_state *st)
{
    return *reinterpret_cast<const benchmark::State *>(st);
}

// The display reporter, reporting every run under its registered name, with the
// console's context block (written to its error stream) beside the table on the output
// stream, and a copy of everything for the output file's reporter when there is one.
class Reporters : public benchmark::BenchmarkReporter {
public:
    Reporters(benchmark::BenchmarkReporter *display, benchmark::BenchmarkReporter *file)
        : display_(display), file_(file)
    {
    }

    bool ReportContext(const Context &context) override
    {
        display_->SetOutputStream(&GetOutputStream());
        display_->SetErrorStream(&GetOutputStream());
        bool ok = display_->ReportContext(context);
        if (file_ && defer_row)
            context_.reset(new Context(context)); // written at the end, with the run's additions
        else if (file_)
            ok = file_->ReportContext(context) && ok;
        return ok;
    }
    void ReportRuns(const std::vector<Run> &runs) override
    {
        std::vector<Run> renamed(runs);
        for (Run &run : renamed) {
            benchmark::BenchmarkName registered;
            registered.function_name = run.run_name.function_name;
            run.run_name = registered;
        }
        display_->ReportRuns(renamed);
        if (file_ && defer_row)
            held_.insert(held_.end(), renamed.begin(), renamed.end());
        else if (file_)
            file_->ReportRuns(renamed);
    }
    void Finalize() override
    {
        display_->Finalize();
        if (file_ && defer_row) {
            for (Run &run : held_)
                if (run.run_type == Run::RT_Iteration)
                    defer_row(defer_ctx, reinterpret_cast<ecsb_gb_row *>(&run));
            if (defer_done)
                defer_done(defer_ctx);
            file_->ReportContext(context_ ? *context_ : Context());
            if (!held_.empty())
                file_->ReportRuns(held_);
        }
        if (file_)
            file_->Finalize();
    }

private:
    benchmark::BenchmarkReporter *display_, *file_;
    std::unique_ptr<Context> context_;
    std::vector<Run> held_;
};

} // namespace

extern "C" {

bool ecsb_gb_register(const char *name, ecsb_gb_fn fn, void *ctx, ecsb_gb_timing timing,
                      uint64_t iterations, int repetitions)
{
    if (!name || !*name || !fn || iterations == 0 || repetitions < 1)
        return false;
    try {
        entries.push_back(std::unique_ptr<Entry>(new Entry{name, fn, ctx}));
        Entry *e = entries.back().get();
        // The registered benchmark's type lives in the library's internal namespace up to
        // 1.8 and is benchmark::Benchmark from 1.9 (where the old name is a deprecated alias:
        // a warning, an error under -Werror). The headers define no version macro, so the type
        // is the one RegisterBenchmark returns in the version built against: never named here.
        auto *b = benchmark::RegisterBenchmark(
            e->name.c_str(),
            [e](benchmark::State &st) { e->fn(reinterpret_cast<ecsb_gb_state *>(&st), e->ctx); });
        b->Iterations((benchmark::IterationCount)iterations)->Repetitions(repetitions);
        if (timing == ECSB_GB_MANUAL_TIME)
            b->UseManualTime();
        return true;
    } catch (const std::exception &) {
        return false;
    }
}

uint64_t ecsb_gb_iterations(const ecsb_gb_state *st)
{
    return (uint64_t)state_of(st).max_iterations;
}

bool ecsb_gb_keep_running_batch(ecsb_gb_state *st, uint64_t n)
{
    return state_of(st).KeepRunningBatch((benchmark::IterationCount)(n ? n : 1));
}

void ecsb_gb_add_manual_time(ecsb_gb_state *st, double seconds)
{
    state_of(st).SetIterationTime(seconds);
}

void ecsb_gb_counter(ecsb_gb_state *st, const char *name, double value)
{
    try {
        state_of(st).counters[name] = benchmark::Counter(value);
    } catch (const std::exception &) {
        // Out of memory for a counter: the run is still valid without it.
    }
}

void ecsb_gb_label(ecsb_gb_state *st, const char *label)
{
    try {
        state_of(st).SetLabel(label);
    } catch (const std::exception &) {
    }
}

void ecsb_gb_skip_with_error(ecsb_gb_state *st, const char *message)
{
    state_of(st).SkipWithError(message);
}

bool ecsb_gb_error_occurred(const ecsb_gb_state *st) { return state_of(st).error_occurred(); }

void ecsb_gb_defer_output(void (*row)(void *ctx, ecsb_gb_row *r), void (*done)(void *ctx),
                          void *ctx)
{
    defer_row = row;
    defer_done = done;
    defer_ctx = ctx;
}

bool ecsb_gb_row_counter(const ecsb_gb_row *r, const char *name, double *value)
{
    const auto &counters = reinterpret_cast<const benchmark::BenchmarkReporter::Run *>(r)->counters;
    auto it = counters.find(name);
    if (it == counters.end())
        return false;
    *value = it->second.value;
    return true;
}

void ecsb_gb_row_set_counter(ecsb_gb_row *r, const char *name, double value)
{
    try {
        reinterpret_cast<benchmark::BenchmarkReporter::Run *>(r)->counters[name] =
            benchmark::Counter(value);
    } catch (const std::exception &) {
    }
}

void ecsb_gb_initialize(int *argc, char **argv) { benchmark::Initialize(argc, argv); }

void ecsb_gb_add_context(const char *key, const char *value)
{
    try {
        benchmark::AddCustomContext(key, value);
    } catch (const std::exception &) {
    }
}

void ecsb_gb_print_flags_help(void) { benchmark::PrintDefaultHelp(); }

bool ecsb_gb_run(const char *out_path, ecsb_gb_out_format format)
{
    try {
        std::ofstream out;
        std::unique_ptr<benchmark::BenchmarkReporter> file;
        if (out_path) {
            out.open(out_path, std::ios::out | std::ios::trunc);
            if (!out)
                return false;
            if (format == ECSB_GB_OUT_CONSOLE)
                file.reset(new benchmark::ConsoleReporter(benchmark::ConsoleReporter::OO_None));
            else
                file.reset(new benchmark::JSONReporter());
            file->SetOutputStream(&out);
            file->SetErrorStream(&out);
        }
        // The shared default display reporter honours --benchmark_format and colours; it is
        // owned by the library and must not be deleted.
        Reporters reporters(benchmark::CreateDefaultDisplayReporter(), file.get());
        benchmark::RunSpecifiedBenchmarks(&reporters, std::string("all"));
        out.close();
        return !out_path || !out.fail();
    } catch (const std::exception &) {
        return false;
    }
}

const char *ecsb_gb_cxx_compiler(void)
{
#if defined(__clang__)
    return "clang++ " __clang_version__;
#elif defined(__GNUC__)
    return "g++ " __VERSION__;
#else
    return "unknown C++ compiler";
#endif
}

} // extern "C"
