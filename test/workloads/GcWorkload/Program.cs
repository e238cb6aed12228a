// GCScope test workload: produces real GC patterns on demand and prints its own collection counts,
// so tests can compare what GCScope decodes with what the runtime itself counted.
//
//   dotnet GcWorkload.dll [--scenario NAME[,NAME...]] [--seconds S | --iterations N] [--wait-for-input]
//                         [--pause-ms MS] [--gc-log]
//
// Scenarios: churn (gen0 garbage), survivors (gen1/gen2 promotion), loh (large objects),
// poh (pinned object heap), pin (pinned handles during GCs), finalizers, induced (GC.Collect of
// each generation), bgc (a large gen2 heap so background GCs run), mixed (all of them).
// Problem modes (issue 13; each causes one problem the diagnosis finds, see the end of this file):
// healthy, induced-gcs, loh-triggered-gen2, growing-live-set, pinning-fragmentation,
// midlife-crisis, long-suspension, loh-alloc-wait — run with --seconds. watch-spike (issue 17): a
// quiet run with one long induced gen2 GC (GCSCOPE_SPIKE_AT seconds in, default 4).
// GC mode comes from the runtime's own settings: DOTNET_gcServer, DOTNET_gcConcurrent,
// DOTNET_GCDynamicAdaptationMode (DATAS), DOTNET_GCHeapCount.
//
// Output lines (stdout, one JSON object each, prefixed so tests can find them):
//   GCSCOPE-READY {"pid":..,"runtime":"8.0.31",...}    once started (before the first scenario)
//   GCSCOPE-GC {"count":..,"utcMs":..}                  with --gc-log, when a GC was seen to finish
//   GCSCOPE-PHASE {"name":..,"gen0":..,"gen1":..,"gen2":..,"utcMs":..}   at each phase boundary
//   GCSCOPE-COUNTS {"gen0":..,"gen1":..,"gen2":..,"mode":..}            when it exits
// GC.CollectionCount(g) counts collections of generation g *or higher*; the "exact" fields give
// collections whose condemned generation is exactly g (gen0 - gen1, gen1 - gen2, gen2).
using System.Diagnostics;
using System.Runtime;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text.Json;

static class Program
{
    static object? s_sink;
    static readonly List<object> s_retained = new();
    // The run's clock and length (--seconds; 0: by iterations), for scenarios with threads of
    // their own that must stop before the run does.
    static readonly Stopwatch s_run = Stopwatch.StartNew();
    static double s_runSeconds;

    static int Main(string[] args)
    {
        string scenarios = Arg(args, "--scenario") ?? "mixed";
        double seconds = double.Parse(Arg(args, "--seconds") ?? "0", System.Globalization.CultureInfo.InvariantCulture);
        int iterations = int.Parse(Arg(args, "--iterations") ?? "1");
        bool waitForInput = args.Contains("--wait-for-input");
        s_runSeconds = seconds;

        var ready = Counts();
        ready["pid"] = Environment.ProcessId;
        ready["server"] = GCSettings.IsServerGC;
        ready["latencyMode"] = GCSettings.LatencyMode.ToString();
        ready["runtime"] = Environment.Version.ToString();
        Emit("GCSCOPE-READY", ready);
        if (args.Contains("--gc-log")) StartGcLog();
        if (waitForInput) Console.ReadLine();
        double pauseMs = double.Parse(Arg(args, "--pause-ms") ?? "0", System.Globalization.CultureInfo.InvariantCulture);

        var names = scenarios == "mixed"
            ? new[] { "churn", "survivors", "loh", "poh", "pin", "finalizers", "induced", "bgc" }
            : scenarios.Split(',', StringSplitOptions.RemoveEmptyEntries);
        var sw = Stopwatch.StartNew();
        var cpu0 = Process.GetCurrentProcess().TotalProcessorTime;
        int round = 0;
        do
        {
            foreach (var name in names)
            {
                Run(name);
                Phase(name);
                if (pauseMs > 0) Thread.Sleep(TimeSpan.FromMilliseconds(pauseMs));
            }
            round++;
        } while (seconds > 0 ? sw.Elapsed.TotalSeconds < seconds : round < iterations);
        var cpuRun = Process.GetCurrentProcess().TotalProcessorTime - cpu0;

        s_retained.Clear();
        var counts = SettledCounts();
        counts["mode"] = GCSettings.IsServerGC ? "server" : "workstation";
        counts["rounds"] = round;
        counts["elapsedMs"] = sw.Elapsed.TotalMilliseconds;
        // CPU time of the whole process over the run (GC and EventPipe threads included):
        // throughput per CPU second stays comparable on a machine other work keeps busy (bench/watch.ts).
        counts["cpuMs"] = cpuRun.TotalMilliseconds;
        Emit("GCSCOPE-COUNTS", counts);
        // Printing allocates (the JSON, the console buffers): with gen0's budget nearly spent, that
        // alone can set off one more GC, which a trace holds but the counts just printed do not.
        // Print again until a print sets off none; readers take the last COUNTS line.
        for (int i = 0; i < 3; i++)
        {
            var now = Counts();
            if ((int)now["gen0"] == (int)counts["gen0"]) break;
            foreach (var k in new[] { "gen0", "gen1", "gen2", "exactGen0", "exactGen1", "exactGen2", "utcMs" }) counts[k] = now[k];
            Emit("GCSCOPE-COUNTS", counts);
        }
        return 0;
    }

    // --gc-log: a background thread watches GC.CollectionCount(0) and prints the wall-clock time at
    // which it saw each GC finish, so a benchmark can measure how long GCScope takes to show it.
    static void StartGcLog()
    {
        var t = new Thread(() =>
        {
            int seen = GC.CollectionCount(0);
            while (true)
            {
                int now = GC.CollectionCount(0);
                if (now != seen)
                {
                    seen = now;
                    Emit("GCSCOPE-GC", new Dictionary<string, object> { ["count"] = now, ["utcMs"] = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() });
                }
                Thread.Sleep(1);
            }
        }) { IsBackground = true, Name = "gc-log" };
        t.Start();
    }

    static string? Arg(string[] args, string name)
    {
        int i = Array.IndexOf(args, name);
        return i >= 0 && i + 1 < args.Length ? args[i + 1] : null;
    }

    static Dictionary<string, object> Counts()
    {
        int g0 = GC.CollectionCount(0), g1 = GC.CollectionCount(1), g2 = GC.CollectionCount(2);
        return new Dictionary<string, object>
        {
            ["gen0"] = g0, ["gen1"] = g1, ["gen2"] = g2,
            ["exactGen0"] = g0 - g1, ["exactGen1"] = g1 - g2, ["exactGen2"] = g2,
            ["utcMs"] = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds(),
        };
    }

    // The counts printed at exit must cover every GC the trace will hold. Finalizers queued by the
    // run still execute (and allocate) after the last scenario, and CollectionCount(0..2) are read
    // one after another, so a GC can land after or between the reads: drain the finalizer queue,
    // then read until two snapshots 100 ms apart agree.
    static Dictionary<string, object> SettledCounts()
    {
        GC.WaitForPendingFinalizers();
        var last = Counts();
        for (int i = 0; i < 50; i++)
        {
            Thread.Sleep(100);
            var now = Counts();
            if ((int)now["gen0"] == (int)last["gen0"] && (int)now["gen1"] == (int)last["gen1"] && (int)now["gen2"] == (int)last["gen2"]) return now;
            last = now;
        }
        return last;
    }

    static void Phase(string name)
    {
        var c = Counts();
        c["name"] = name;
        Emit("GCSCOPE-PHASE", c);
    }

    static void Emit(string tag, Dictionary<string, object> fields)
    {
        Console.Out.WriteLine(tag + " " + JsonSerializer.Serialize(fields));
        Console.Out.Flush();
    }

    static void Run(string name)
    {
        switch (name)
        {
            case "watch-spike": WatchSpike(); break;
            case "churn": Churn(); break;
            case "survivors": Survivors(); break;
            case "loh": Loh(); break;
            case "poh": Poh(); break;
            case "pin": Pin(); break;
            case "finalizers": Finalizers(); break;
            case "induced": Induced(); break;
            case "bgc": Bgc(); break;
            case "healthy": Healthy(); break;
            case "induced-gcs": InducedGcs(); break;
            case "loh-triggered-gen2": LohTriggeredGen2(); break;
            case "growing-live-set": GrowingLiveSet(); break;
            case "leak-fast": LeakFast(); break;
            case "startup-fill": StartupFill(); break;
            case "pinning-fragmentation": PinningFragmentation(); break;
            case "midlife-crisis": MidlifeCrisis(); break;
            case "long-suspension": LongSuspension(); break;
            case "loh-alloc-wait": LohAllocWait(); break;
            case "datas-phases": DatasPhases(); break;
            case "who-allocates": WhoAllocates.Run(); break;
            default: throw new ArgumentException($"unknown scenario {name}");
        }
    }

    // Short-lived garbage: gen0 GCs.
    static void Churn()
    {
        for (int i = 0; i < 400_000; i++) s_sink = new byte[64 + (i % 256)];
    }

    // Objects that live for a while: promotions into gen1 and gen2.
    static void Survivors()
    {
        var keep = new List<byte[]>();
        for (int i = 0; i < 200_000; i++)
        {
            keep.Add(new byte[128]);
            if (keep.Count > 20_000) keep.RemoveRange(0, 10_000);
        }
        s_sink = keep;
    }

    // Large object heap allocations (>= 85,000 bytes).
    static void Loh()
    {
        for (int i = 0; i < 300; i++) s_sink = new byte[100_000 + i * 100];
    }

    // Pinned object heap (.NET 5+).
    static void Poh()
    {
        var keep = new List<byte[]>();
        for (int i = 0; i < 2_000; i++)
        {
            keep.Add(GC.AllocateArray<byte>(4096, pinned: true));
            if (keep.Count > 200) keep.RemoveRange(0, 100);
        }
        s_sink = keep;
    }

    // Pinned handles alive across GCs.
    static void Pin()
    {
        var handles = new List<GCHandle>();
        for (int i = 0; i < 200; i++) handles.Add(GCHandle.Alloc(new byte[1024], GCHandleType.Pinned));
        for (int i = 0; i < 200_000; i++) s_sink = new byte[100];
        foreach (var h in handles) h.Free();
    }

    sealed class Finalizable
    {
        readonly byte[] _payload = new byte[64];
        ~Finalizable() { s_sink = _payload; }
    }

    static void Finalizers()
    {
        for (int i = 0; i < 50_000; i++) s_sink = new Finalizable();
        GC.Collect(0, GCCollectionMode.Forced, blocking: true);
        GC.WaitForPendingFinalizers();
    }

    static void Induced()
    {
        GC.Collect(0, GCCollectionMode.Forced, blocking: true);
        GC.Collect(1, GCCollectionMode.Forced, blocking: true);
        GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
    }

    // Background GCs: keep a large gen2 (a linked graph of small objects) and keep promoting
    // survivors into it, so gen2 budgets run out while the app allocates; with concurrent GC on,
    // the runtime then collects gen2 in the background and gen0/gen1 GCs run inside it
    // (foreground GCs). A non-blocking induced gen2 collection asks for one directly too.
    static void Bgc()
    {
        if (s_retained.Count == 0)
            for (int i = 0; i < 400_000; i++) s_retained.Add(new object[4]);
        GC.Collect(2, GCCollectionMode.Optimized, blocking: false);
        var survivors = new List<object>();
        for (int i = 0; i < 1_500_000; i++)
        {
            var o = new byte[96];
            if (i % 8 == 0) survivors.Add(o);
            if (survivors.Count > 60_000)
            {
                s_retained.Add(survivors);
                survivors = new List<object>();
            }
        }
        if (s_retained.Count > 400_100) s_retained.RemoveRange(400_000, s_retained.Count - 400_000);
    }

    // Flight recorder (issue 17): one long induced GC after a quiet period. The first slice builds a
    // linked graph of 3 million small objects (promoted to gen2 by the GCs that follow), then
    // slices of the healthy mode's request garbage run (cheap gen0 GCs: the graph is old), and
    // once, GCSCOPE_SPIKE_AT seconds (default 4) into the run, a blocking compacting GC.Collect(2) marks
    // and moves the whole graph: the one long, induced GC a watch trigger should catch.
    static SpikeNode? s_spikeGraph;
    static Stopwatch? s_spikeClock;
    static bool s_spiked;
    sealed class SpikeNode { public SpikeNode? Next; public long Value; }
    static void WatchSpike()
    {
        if (s_spikeClock == null)
        {
            s_spikeClock = Stopwatch.StartNew();
            SpikeNode? head = null;
            for (int i = 0; i < 3_000_000; i++) head = new SpikeNode { Next = head, Value = i };
            s_spikeGraph = head;
        }
        EnsureCache();
        Paced(() => RequestGarbage());
        double at = double.Parse(Environment.GetEnvironmentVariable("GCSCOPE_SPIKE_AT") ?? "4", System.Globalization.CultureInfo.InvariantCulture);
        if (!s_spiked && s_spikeClock.Elapsed.TotalSeconds >= at)
        {
            s_spiked = true;
            GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
            Emit("GCSCOPE-SPIKE", new Dictionary<string, object> { ["gen2"] = GC.CollectionCount(2), ["utcMs"] = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() });
        }
        GC.KeepAlive(s_spikeGraph);
    }

    // ---------------------------------------------------------------------------------------------
    // Problem modes (issue 13): one scenario per problem GCScope's diagnosis rules detect
    // (docs/diagnosis.md), plus a healthy one. Each call runs one slice of about
    // 200 ms and the main loop repeats it until --seconds run out, so state lives in statics.
    // Allocation is paced (a quota per 20 ms step, then sleep) like a service handling requests:
    // the GC rate, and with it the share of time paused, is then the same on a fast or a busy
    // machine, and only the problem a mode is about stands out.
    //   healthy               a 40 MB cache that never changes + 100 MB/s of short-lived garbage
    //   induced-gcs           healthy + GC.Collect() once a second                         (M4)
    //   loh-triggered-gen2    healthy, then 150 KB buffers allocated and dropped (LOH churn) (M5)
    //   growing-live-set      healthy, with the cache refreshed, + a static list that keeps
    //                         growing (~1 MB/s)                                            (M9)
    //   leak-fast             request garbage (no cache) + a static list that keeps 80 MB/s:
    //                         the live set climbs from ~1 MB by hundreds of MB in seconds and
    //                         never levels off; no gen2 GC reclaims anything               (M9)
    //   startup-fill          a 200 MB cache filled over the first 2 s, then healthy: the
    //                         live set climbs and levels off (no finding: warm-up, not a leak)
    //   pinning-fragmentation request garbage (no cache), every 2048th buffer pinned by a
    //                         GCHandle for ~3 s                                            (M11)
    //   midlife-crisis        healthy + a cache whose entries live ~1.5 s: old enough to be
    //                         promoted to gen2, then they die there
    //   long-suspension       healthy + a thread that blocks in native code for 30 ms at a
    //                         time in cooperative mode, so every GC waits for it          (M1)
    //   loh-alloc-wait        healthy + a large graph of small objects (slow background GCs)
    //                         + 1 MB buffers allocated and dropped: during each background
    //                         GC the LOH allocations outrun the sweep and wait for it      (M6)
    // ---------------------------------------------------------------------------------------------

    const int StepMs = 20;
    const int StepsPerSlice = 10;
    static List<byte[]>? s_cache;

    // One slice: StepsPerSlice steps of StepMs each; `step` does one step's work, then the rest
    // of the step is slept away (a step that overran is not made up for).
    static void Paced(Action step)
    {
        for (int i = 0; i < StepsPerSlice; i++)
        {
            long start = Stopwatch.GetTimestamp();
            step();
            double left = StepMs - Stopwatch.GetElapsedTime(start).TotalMilliseconds;
            if (left > 1) Thread.Sleep(TimeSpan.FromMilliseconds(left));
        }
    }

    // The steady part every mode shares: a cache built once (40 MB in 4,000 arrays of 10 KB that
    // live for the whole run, so the heap after a GC is large compared with the gen0 budget: no
    // "peak far above after" finding) and request garbage at ~100 MB/s (2 MB per 20 ms step).
    // Few, large entries keep marking cheap, so the GCs that promote the cache at startup cost
    // about what their promoted bytes say, like the later ones.
    const int CacheEntries = 4_000;
    const int CacheEntryBytes = 10_000;
    static void EnsureCache()
    {
        if (s_cache != null) return;
        s_cache = new List<byte[]>(CacheEntries);
        for (int i = 0; i < CacheEntries; i++) s_cache.Add(new byte[CacheEntryBytes]);
    }

    static void RequestGarbage(int bytes = 2_000_000)
    {
        for (int allocated = 0; allocated < bytes; allocated += 160) s_sink = new byte[136];
    }

    static void Healthy()
    {
        EnsureCache();
        Paced(() => RequestGarbage());
    }

    // Induced GCs: a full blocking GC.Collect() once a second (every 5th slice), the pattern of an
    // app that "helps" the GC. Each one marks the whole 40 MB cache, so induced GCs take most of the
    // pause time while being a small share of all GCs.
    static int s_inducedSlices;
    static void InducedGcs()
    {
        EnsureCache();
        Paced(() => RequestGarbage());
        if (++s_inducedSlices % 5 == 0) GC.Collect();
    }

    // LOH churn: six 150 KB buffers per step (45 MB/s), dropped at once. Each is on the large
    // object heap (>= 85,000 bytes); when the LOH budget runs out the GC collects gen2 with reason
    // AllocLarge, more often than the small-object garbage (25 MB/s) triggers gen0 GCs. The first
    // second runs like healthy, the way a service warms its cache before traffic arrives: the
    // cache is in gen2 before the large buffers start.
    static int s_lohSlices;
    static void LohTriggeredGen2()
    {
        EnsureCache();
        if (s_lohSlices++ < 5)
        {
            Healthy();
            return;
        }
        Paced(() =>
        {
            RequestGarbage(500_000);
            for (int i = 0; i < 6; i++) s_sink = new byte[150_000];
        });
    }

    // A managed leak in a service that is otherwise steady: the 40 MB cache is refreshed (20
    // entries replaced per step, ~10 MB/s: the old entries die in gen2, so gen2 GCs keep coming
    // as they would in any long-running service), and a static list that is never trimmed keeps
    // 20 KB more per step (~1 MB/s). What survives each gen2 GC then grows steadily, slowly
    // compared with the cache, as a leak does. Requests allocate twice healthy's garbage here, so
    // the refreshed entries (which do die in gen2) stay a small share of what is allocated: this
    // mode is about the leak, not a mid-life crisis.
    static readonly List<byte[]> s_leak = new();
    static int s_refreshAt;
    static void GrowingLiveSet()
    {
        EnsureCache();
        Paced(() =>
        {
            RequestGarbage(4_000_000);
            for (int i = 0; i < 20; i++)
            {
                s_cache![s_refreshAt] = new byte[CacheEntryBytes];
                s_refreshAt = (s_refreshAt + 1) % s_cache.Count;
            }
            for (int i = 0; i < 20 * 1024 / 160; i++) s_leak.Add(new byte[136]);
        });
    }

    // A fast leak, the kind a short recording catches: no cache, and every step keeps 1.6 MB more
    // (160 arrays of 10 KB) in a static list that is never trimmed. The live set climbs by ~80 MB/s
    // from ~1 MB and never levels off; gen2 GCs (triggered by the growth) reclaim nothing.
    static void LeakFast()
    {
        Paced(() =>
        {
            RequestGarbage();
            for (int i = 0; i < 160; i++) s_leak.Add(new byte[CacheEntryBytes]);
        });
    }

    // A start-up fill that levels off: the first 2 s (10 slices) fill a 200 MB cache (2 MB of
    // 10 KB entries per step) beside the request garbage, the way a service loads its reference
    // data at start; then it runs like healthy with that cache. The live set climbs and stays level:
    // warm-up, not a leak — no finding.
    static readonly List<byte[]> s_fill = new();
    static int s_fillSlices;
    static void StartupFill()
    {
        EnsureCache();
        bool filling = s_fillSlices++ < 10;
        Paced(() =>
        {
            RequestGarbage();
            if (filling) for (int i = 0; i < 200; i++) s_fill.Add(new byte[CacheEntryBytes]);
        });
    }

    // Long-lived pins among gen0 objects: every 2048th small request buffer is pinned with a
    // GCHandle and stays pinned for about 3 s (the pattern of buffers handed to native I/O and
    // kept). The GC cannot move them, so the gen0 space between them cannot be compacted and is
    // demoted as free space: gen0 after a GC is large and mostly fragmentation.
    static readonly Queue<(long Ticks, GCHandle Handle)> s_pins = new();
    static void PinningFragmentation()
    {
        // No cache here: what is left after a GC is mostly the pinned buffers' gen0 regions.
        Paced(() =>
        {
            long now = Stopwatch.GetTimestamp();
            for (int allocated = 0, i = 0; allocated < 2_000_000; allocated += 160, i++)
            {
                var buffer = new byte[136];
                if (i % 2048 == 0) s_pins.Enqueue((now, GCHandle.Alloc(buffer, GCHandleType.Pinned)));
                else s_sink = buffer;
            }
            while (s_pins.Count > 0 && Stopwatch.GetElapsedTime(s_pins.Peek().Ticks).TotalSeconds > 3) s_pins.Dequeue().Handle.Free();
        });
    }

    // Mid-life crisis: a cache whose entries (1 KB each, 20 MB/s) are evicted after ~1.5 s. They
    // outlive the gen0 and gen1 GCs that happen meanwhile, so gen1 GCs promote them into gen2,
    // where they die soon after: gen2 GCs then reclaim most of what was promoted.
    static readonly Queue<(long Ticks, byte[] Entry)> s_midlife = new();
    static void MidlifeCrisis()
    {
        EnsureCache();
        Paced(() =>
        {
            long now = Stopwatch.GetTimestamp();
            RequestGarbage(1_000_000);
            for (int i = 0; i < 400; i++) s_midlife.Enqueue((now, new byte[1000]));
            while (s_midlife.Count > 0 && Stopwatch.GetElapsedTime(s_midlife.Peek().Ticks).TotalSeconds > 1.5) s_midlife.Dequeue();
        });
    }

    // Long suspension: a thread blocks in native code for 30 ms at a time, in a loop, through a
    // P/Invoke marked SuppressGCTransition. Such a call does not switch the thread to preemptive
    // mode, so while it blocks the thread is still "running managed code" as far as the GC is
    // concerned and cannot be suspended: every GC the allocating thread triggers waits until the
    // call returns (up to 30 ms, ~15 ms on average) before it can start. The attribute is
    // documented for short calls only; using it on a blocking call is the bug this mode reproduces.
    // The blocking call must outlast the runtime's suspension signal: usleep/nanosleep return early
    // (EINTR) when it arrives, which lets the GC in at once. read() on a timerfd is restarted after
    // the signal handler (the runtime installs it with SA_RESTART), so it blocks until the timer's
    // next 30 ms tick whatever happens. On Windows, Sleep is not interrupted by suspension.
    const int BlockMs = 30;

    [DllImport("libc", SetLastError = true)]
    static extern int timerfd_create(int clockId, int flags);

    [StructLayout(LayoutKind.Sequential)]
    struct Timespec { public long Seconds; public long Nanoseconds; }

    [StructLayout(LayoutKind.Sequential)]
    struct Itimerspec { public Timespec Interval; public Timespec Value; }

    [DllImport("libc", SetLastError = true)]
    static extern int timerfd_settime(int fd, int flags, ref Itimerspec newValue, IntPtr oldValue);

    [DllImport("libc", EntryPoint = "read")]
    [SuppressGCTransition]
    static extern unsafe nint ReadInCooperativeMode(int fd, ulong* buffer, nint count);

    [DllImport("kernel32", EntryPoint = "Sleep")]
    [SuppressGCTransition]
    static extern void SleepInCooperativeMode(uint milliseconds);

    // One method per OS: a SuppressGCTransition P/Invoke is bound when its caller is compiled, so
    // the other OS's library must not appear in a method that runs.
    [MethodImpl(MethodImplOptions.NoInlining)]
    static unsafe void BlockForeverLinux()
    {
        const int ClockMonotonic = 1;
        int fd = timerfd_create(ClockMonotonic, 0);
        if (fd < 0) throw new InvalidOperationException($"timerfd_create failed: errno {Marshal.GetLastPInvokeError()}");
        var period = new Timespec { Seconds = 0, Nanoseconds = BlockMs * 1_000_000L };
        var spec = new Itimerspec { Interval = period, Value = period };
        if (timerfd_settime(fd, 0, ref spec, IntPtr.Zero) != 0) throw new InvalidOperationException($"timerfd_settime failed: errno {Marshal.GetLastPInvokeError()}");
        ulong expirations;
        while (true) ReadInCooperativeMode(fd, &expirations, sizeof(ulong));
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static void BlockForeverWindows()
    {
        while (true) SleepInCooperativeMode(BlockMs);
    }

    static Thread? s_blocker;
    static void LongSuspension()
    {
        EnsureCache();
        if (s_blocker == null)
        {
            s_blocker = new Thread(() =>
            {
                if (OperatingSystem.IsWindows()) BlockForeverWindows();
                else if (OperatingSystem.IsLinux()) BlockForeverLinux();
                else throw new PlatformNotSupportedException("long-suspension needs Linux (timerfd) or Windows");
            }) { IsBackground = true, Name = "native-blocker" };
            s_blocker.Start();
        }
        // Less garbage than healthy (a GC every ~400 ms): each GC's pause is mostly the wait for
        // the blocked thread, and fewer GCs keep the share of time paused low.
        Paced(() => RequestGarbage(800_000));
    }

    // LOH allocation waits during background GCs: while a background GC runs, the GC lets the
    // large object heap grow by a multiple of its size when the BGC started and no more (gc.cpp:
    // bgc_uoh_inc_ratio_alloc_wait, 2.0 with regions as in .NET 7+, 1.0 with segments; the
    // UOHWaitBGCSizeIncPercent setting; wait reason awr_uoh_alloc_during_bgc); a thread that
    // allocates more waits until the BGC is done. Two parts:
    // - a graph that makes every background GC's concurrent mark slow: LOH_WAIT_GRAPH_NODES
    //   (default 3,000,000) small nodes, each linked to the previous one and to two random others.
    //   The random links are wired only once the nodes are in gen2, so gen0/gen1 GCs never trace
    //   them (no card marking between gen2 objects) and only background GCs pay the cache misses;
    // - a thread allocating and dropping 1 MB buffers as fast as it can: it exhausts the LOH budget
    //   (the BGCs' reason is AllocLarge — LOH churn is what makes threads wait in practice) and,
    //   during each BGC, soon reaches the limit and waits for the rest of it. It stops a second
    //   before the run ends, so the last BGC it starts completes inside the recording.
    //   The buffers are uninitialized (GC.AllocateUninitializedArray, what ArrayPool<T>.Shared
    //   rents with): the GC does not zero them, so an allocation costs next to no CPU and the
    //   thread reaches the limit within a BGC however little CPU it gets. Zeroed `new byte[]`
    //   buffers cost a page's worth of clearing per 4 KB: on a machine whose cores other work
    //   kept busy (issue 39), the thread then grew the LOH by half the limit during an 8 s BGC and
    //   never waited.
    // Meanwhile the main thread allocates healthy's request garbage.
    sealed class Node { public Node? Prev, A, B; }
    static Node[]? s_nodes;
    static Node? s_graph;
    static Thread? s_lohAllocator;
    static void LohAllocWait()
    {
        EnsureCache();
        if (s_nodes == null && s_graph == null)
        {
            int n = int.Parse(Environment.GetEnvironmentVariable("LOH_WAIT_GRAPH_NODES") ?? "3000000", System.Globalization.CultureInfo.InvariantCulture);
            s_nodes = new Node[n];
            for (int i = 0; i < n; i++) s_nodes[i] = new Node { Prev = i > 0 ? s_nodes[i - 1] : null };
        }
        if (s_nodes != null && GC.GetGeneration(s_nodes[s_nodes.Length - 1]) == 2)
        {
            var rng = new Random(13);
            foreach (var node in s_nodes)
            {
                node.A = s_nodes[rng.Next(s_nodes.Length)];
                node.B = s_nodes[rng.Next(s_nodes.Length)];
            }
            s_graph = s_nodes[s_nodes.Length - 1];
            s_nodes = null;
            s_lohAllocator = new Thread(() =>
            {
                while (s_runSeconds <= 0 || s_run.Elapsed.TotalSeconds < s_runSeconds - 1)
                {
                    for (int i = 0; i < 8; i++) s_sink = GC.AllocateUninitializedArray<byte>(1_000_000);
                    Thread.Sleep(1);
                }
            }) { IsBackground = true, Name = "loh-allocator" };
            s_lohAllocator.Start();
        }
        Healthy();
    }

    // DATAS (Server GC with dynamic heap count): a busy phase, then a light one. Busy: two threads
    // allocate as fast as they can while keeping a moving window of survivors, so GC cost is high
    // and DATAS grows the heap count. Light: one thread allocates a little every 50 ms, so GCs
    // still happen (DATAS only decides at GCs: ~2.5 MB of short-lived garbage per 50 ms) but cost
    // little, and DATAS can shrink again.
    // Lengths: DATAS_BUSY_SECONDS (default 15) and DATAS_LIGHT_SECONDS (default 60).
    static void DatasPhases()
    {
        double busy = double.Parse(Environment.GetEnvironmentVariable("DATAS_BUSY_SECONDS") ?? "15", System.Globalization.CultureInfo.InvariantCulture);
        double light = double.Parse(Environment.GetEnvironmentVariable("DATAS_LIGHT_SECONDS") ?? "60", System.Globalization.CultureInfo.InvariantCulture);
        var sw = Stopwatch.StartNew();
        var threads = new Thread[2];
        for (int t = 0; t < threads.Length; t++)
        {
            threads[t] = new Thread(() =>
            {
                var keep = new List<byte[]>();
                int i = 0;
                while (sw.Elapsed.TotalSeconds < busy)
                {
                    var o = new byte[64 + (i++ % 512)];
                    if (i % 16 == 0) keep.Add(o);
                    if (keep.Count > 100_000) keep.RemoveRange(0, 50_000);
                }
                s_sink = keep;
            }) { IsBackground = true };
            threads[t].Start();
        }
        foreach (var t in threads) t.Join();
        Phase("datas-busy");
        s_sink = null;
        while (sw.Elapsed.TotalSeconds < busy + light)
        {
            for (int i = 0; i < 10_000; i++) s_sink = new byte[256];
            Thread.Sleep(50);
        }
        Phase("datas-light");
    }
}

// Who caused it (issue 14): a scenario whose callers are known, so tests can check resolved call
// stacks. The only GC.Collect() caller is ReportCache.Flush; small objects are OrderLine instances
// allocated by Orders.Build, large ones (LOH) double[] arrays allocated by ImageBuffers.Render.
// NoInlining keeps each method a frame of its own. One round is about 100 ms.
static class WhoAllocates
{
    static object? s_keep;

    public static void Run()
    {
        for (int i = 0; i < 4; i++)
        {
            Orders.Build(20_000);
            ImageBuffers.Render(12);
        }
        ReportCache.Flush();
    }

    public sealed class OrderLine
    {
        public long Id;
        public double Price;
        public string? Sku;
    }

    public static class Orders
    {
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void Build(int count)
        {
            var lines = new OrderLine[64];
            for (int i = 0; i < count; i++) lines[i % lines.Length] = new OrderLine { Id = i, Price = i * 0.5 };
            s_keep = lines;
        }
    }

    public static class ImageBuffers
    {
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void Render(int count)
        {
            for (int i = 0; i < count; i++) s_keep = new double[15_000 + i];
        }
    }

    public static class ReportCache
    {
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void Flush() => GC.Collect();
    }
}
