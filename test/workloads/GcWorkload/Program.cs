// GCScope test workload: produces real GC patterns on demand and prints its own collection counts,
// so tests can compare what GCScope decodes with what the runtime itself counted.
//
//   dotnet GcWorkload.dll [--scenario NAME[,NAME...]] [--seconds S | --iterations N] [--wait-for-input]
//                         [--pause-ms MS] [--gc-log]
//
// Scenarios: churn (gen0 garbage), survivors (gen1/gen2 promotion), loh (large objects),
// poh (pinned object heap), pin (pinned handles during GCs), finalizers, induced (GC.Collect of
// each generation), bgc (a large gen2 heap so background GCs run), mixed (all of them).
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
using System.Runtime.InteropServices;
using System.Text.Json;

static class Program
{
    static object? s_sink;
    static readonly List<object> s_retained = new();

    static int Main(string[] args)
    {
        string scenarios = Arg(args, "--scenario") ?? "mixed";
        double seconds = double.Parse(Arg(args, "--seconds") ?? "0", System.Globalization.CultureInfo.InvariantCulture);
        int iterations = int.Parse(Arg(args, "--iterations") ?? "1");
        bool waitForInput = args.Contains("--wait-for-input");

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

        s_retained.Clear();
        var counts = SettledCounts();
        counts["mode"] = GCSettings.IsServerGC ? "server" : "workstation";
        counts["rounds"] = round;
        counts["elapsedMs"] = sw.Elapsed.TotalMilliseconds;
        Emit("GCSCOPE-COUNTS", counts);
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
            case "churn": Churn(); break;
            case "survivors": Survivors(); break;
            case "loh": Loh(); break;
            case "poh": Poh(); break;
            case "pin": Pin(); break;
            case "finalizers": Finalizers(); break;
            case "induced": Induced(); break;
            case "bgc": Bgc(); break;
            case "datas-phases": DatasPhases(); break;
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
