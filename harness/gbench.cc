// gbench.cc — the C interface of harness/gbench.h over Google Benchmark 1.7.1 (Debian
// libbenchmark-dev). The project's only C++ file: everything else is C17.
//
// Three things here go beyond plain forwarding:
//  - Progress: Google Benchmark reports a benchmark only when all its repetitions are done,
//    which under random interleaving is near the end of the run. So each body call is watched
//    instead, and Google Benchmark's own rule for "this call ended a repetition" is applied
//    (1.7.1 BenchmarkRunner: the first repetition grows the iteration count until the run's
//    time reaches --benchmark_min_time; later repetitions reuse that count, one call each).
//  - Names: Google Benchmark appends "/manual_time" to manual-timing benchmarks; the
//    reporters are wrapped to drop it, so outputs show the names as registered.
//  - Reporters: 1.7.1's RunSpecifiedBenchmarks deletes the shared default display reporter
//    when it was not handed one (a second call then crashes), so one is always passed in.
//
// Nothing here may throw into C: every entry point catches.
#include "harness/gbench.h"

#include <benchmark/benchmark.h>

#include <ctime>
#include <exception>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

// Flag variables of libbenchmark 1.7.1 (defined and exported in its benchmark.cc, not declared
// in its header). Used to read the parsed values and to count the selected benchmarks.
namespace benchmark {
extern bool FLAGS_benchmark_list_tests;
extern std::string FLAGS_benchmark_filter;
extern double FLAGS_benchmark_min_time;
extern int32_t FLAGS_benchmark_repetitions;
extern bool FLAGS_benchmark_enable_random_interleaving;
extern std::string FLAGS_benchmark_out;
extern std::string FLAGS_benchmark_out_format;
} // namespace benchmark

namespace {

// Iteration count at which Google Benchmark ends a repetition regardless of time (1.7.1).
constexpr benchmark::IterationCount kMaxIterations = 1000000000;

struct Entry {
    std::string name;
    ecsb_gb_fn fn;
    void *ctx;
    ecsb_gb_timing timing;
    int repetitions_done;
};

// Timing of the body call in progress, seen from the batched loop.
struct Call {
    bool started, stopped;
    double real0, cpu0, real, cpu, manual;
};

std::vector<std::unique_ptr<Entry>> entries;
Call call;
ecsb_gb_progress_fn progress_fn;
void *progress_ctx;
size_t progress_done, progress_total;

double clock_seconds(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

benchmark::State &state_of(ecsb_gb_state *st) { return *reinterpret_cast<benchmark::State *>(st); }
const benchmark::State &state_of(const ecsb_gb_state *st)
{
    return *reinterpret_cast<const benchmark::State *>(st);
}

// Did the call that just returned end a repetition? Mirrors 1.7.1's
// BenchmarkRunner::ShouldReportIterationResults for the first repetition.
bool ends_repetition(const Entry &e, const benchmark::State &st)
{
    if (st.error_occurred() || e.repetitions_done > 0)
        return true;
    const double min_time = benchmark::FLAGS_benchmark_min_time;
    const bool manual = e.timing == ECSB_GB_MANUAL_TIME;
    const double seconds = manual ? call.manual : call.cpu;
    return st.max_iterations >= kMaxIterations || seconds >= min_time ||
           (!manual && call.real >= 5 * min_time);
}

void run_entry(Entry *e, benchmark::State &st)
{
    call = Call();
    e->fn(reinterpret_cast<ecsb_gb_state *>(&st), e->ctx);
    if (!ends_repetition(*e, st))
        return;
    e->repetitions_done++;
    progress_done++;
    if (progress_fn)
        progress_fn(progress_ctx, progress_done, progress_total, e->name.c_str());
}

// Forwards to another reporter, reporting manual-timing runs under their registered name.
// With context_to_output, the inner reporter's context block (which the console reporter
// writes to its error stream) goes to the output stream, beside the table it describes.
class NameKeeper : public benchmark::BenchmarkReporter {
public:
    NameKeeper(benchmark::BenchmarkReporter *inner, bool context_to_output)
        : inner_(inner), context_to_output_(context_to_output)
    {
    }

    bool ReportContext(const Context &context) override
    {
        // Google Benchmark points this reporter's streams at the output file; pass them on.
        inner_->SetOutputStream(&GetOutputStream());
        inner_->SetErrorStream(context_to_output_ ? &GetOutputStream() : &GetErrorStream());
        return inner_->ReportContext(context);
    }
    void ReportRuns(const std::vector<Run> &runs) override
    {
        std::vector<Run> renamed(runs);
        for (Run &run : renamed)
            if (run.run_name.time_type == "manual_time")
                run.run_name.time_type.clear();
        inner_->ReportRuns(renamed);
    }
    void Finalize() override { inner_->Finalize(); }

private:
    benchmark::BenchmarkReporter *inner_;
    bool context_to_output_;
};

} // namespace

extern "C" {

bool ecsb_gb_register(const char *name, ecsb_gb_fn fn, void *ctx, ecsb_gb_timing timing)
{
    if (!name || !*name || !fn)
        return false;
    try {
        entries.push_back(std::unique_ptr<Entry>(new Entry{name, fn, ctx, timing, 0}));
        Entry *e = entries.back().get();
        benchmark::internal::Benchmark *b = benchmark::RegisterBenchmark(
            e->name.c_str(), [e](benchmark::State &st) { run_entry(e, st); });
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
    bool more = state_of(st).KeepRunningBatch((benchmark::IterationCount)(n ? n : 1));
    if (more && !call.started) {
        call.started = true;
        call.real0 = clock_seconds(CLOCK_MONOTONIC);
        call.cpu0 = clock_seconds(CLOCK_THREAD_CPUTIME_ID);
    } else if (!more && call.started && !call.stopped) {
        call.stopped = true;
        call.real = clock_seconds(CLOCK_MONOTONIC) - call.real0;
        call.cpu = clock_seconds(CLOCK_THREAD_CPUTIME_ID) - call.cpu0;
    }
    return more;
}

void ecsb_gb_set_iteration_time(ecsb_gb_state *st, double seconds)
{
    state_of(st).SetIterationTime(seconds);
    call.manual += seconds;
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

void ecsb_gb_initialize(int *argc, char **argv) { benchmark::Initialize(argc, argv); }

void ecsb_gb_add_context(const char *key, const char *value)
{
    try {
        benchmark::AddCustomContext(key, value);
    } catch (const std::exception &) {
    }
}

void ecsb_gb_print_flags_help(void) { benchmark::PrintDefaultHelp(); }

int ecsb_gb_repetitions(void) { return benchmark::FLAGS_benchmark_repetitions; }
double ecsb_gb_min_time(void) { return benchmark::FLAGS_benchmark_min_time; }
bool ecsb_gb_random_interleaving(void)
{
    return benchmark::FLAGS_benchmark_enable_random_interleaving;
}
bool ecsb_gb_list_tests(void) { return benchmark::FLAGS_benchmark_list_tests; }

void ecsb_gb_filter(char *buf, size_t size)
{
    if (!buf || size == 0)
        return;
    const std::string &f = benchmark::FLAGS_benchmark_filter;
    size_t n = f.size() < size - 1 ? f.size() : size - 1;
    f.copy(buf, n);
    buf[n] = '\0';
}

size_t ecsb_gb_count_selected(void)
{
    try {
        // List mode prints names to the display reporter's stream: give it one that is never
        // opened (writes fail silently), and no output file (list mode would truncate it).
        std::ofstream nowhere;
        benchmark::ConsoleReporter quiet(benchmark::ConsoleReporter::OO_None);
        quiet.SetOutputStream(&nowhere);
        quiet.SetErrorStream(&nowhere);
        const bool list = benchmark::FLAGS_benchmark_list_tests;
        const std::string out = benchmark::FLAGS_benchmark_out;
        benchmark::FLAGS_benchmark_list_tests = true;
        benchmark::FLAGS_benchmark_out.clear();
        size_t n = benchmark::RunSpecifiedBenchmarks(&quiet);
        benchmark::FLAGS_benchmark_list_tests = list;
        benchmark::FLAGS_benchmark_out = out;
        return n;
    } catch (const std::exception &) {
        return 0;
    }
}

size_t ecsb_gb_run(ecsb_gb_progress_fn progress, void *ctx)
{
    try {
        const int reps = benchmark::FLAGS_benchmark_repetitions > 0
                             ? benchmark::FLAGS_benchmark_repetitions
                             : 1;
        progress_fn = benchmark::FLAGS_benchmark_list_tests ? nullptr : progress;
        progress_ctx = ctx;
        progress_done = 0;
        progress_total = progress_fn ? ecsb_gb_count_selected() * (size_t)reps : 0;

        // The shared default display reporter honours --benchmark_format and colours; it is
        // owned by the library and must not be deleted.
        NameKeeper display(benchmark::CreateDefaultDisplayReporter(), true);
        std::unique_ptr<benchmark::BenchmarkReporter> file_inner;
        const std::string &format = benchmark::FLAGS_benchmark_out_format;
        if (!benchmark::FLAGS_benchmark_out.empty()) {
            if (format == "json")
                file_inner.reset(new benchmark::JSONReporter());
            else if (format == "console")
                file_inner.reset(
                    new benchmark::ConsoleReporter(benchmark::ConsoleReporter::OO_None));
            // Any other format: Google Benchmark makes (or rejects) its own file reporter.
        }
        std::unique_ptr<NameKeeper> file(
            file_inner ? new NameKeeper(file_inner.get(), false) : nullptr);
        size_t n = benchmark::RunSpecifiedBenchmarks(&display, file.get());
        progress_fn = nullptr;
        return n;
    } catch (const std::exception &) {
        return 0;
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
