// GcOracle: TraceEvent's own GC analysis over an EventPipe trace, as CSV.
//
//   dotnet GcOracle.dll TRACE.nettrace [--rollup | --events]
//
// Prints a header line and one row per GC in TraceEvent's TraceLoadedDotNetRuntime.GC.GCs list
// (the data behind PerfView's GCStats). With --rollup, prints the per-generation rollup of
// TraceGarbageCollector.Stats()/Generations() and GetGCPauseTimePercentage() instead.
// With --events (bench/vs-traceevent's yardstick for `gcscope events`), it only dispatches every
// event through EventPipeEventSource to the CLR and dynamic parsers' callbacks (unknown events
// to UnhandledEvents) and prints the count of events per name.
// With --loh-waits, prints TraceGC.LOHWaitThreads of every GC that has them (PerfView GCStats'
// "LOH Allocation Pause (due to background GC)"): one row per BGC and thread, with TraceEvent's
// start and stop (0 when it saw none) and the reason.
// With --stacks (issue 14), TraceEvent's TraceLog (the ETLX conversion PerfView's stack views use)
// resolves call stacks from the trace's own method load and rundown events: one JSON line per
// GC/Triggered event and per 10th GC/AllocationTick event, with each frame's address and
// CodeAddress.FullMethodName (innermost first). With --alloc-types, the AllocationTick sums per
// type and kind from TraceEvent's GCAllocationTickTraceData.
// Numbers use the invariant culture and round-trip ("R") formatting; NaN prints as NaN.
using System.Globalization;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Analysis;
using Microsoft.Diagnostics.Tracing.Analysis.GC;
using Microsoft.Diagnostics.Tracing.Etlx;
using Microsoft.Diagnostics.Tracing.Parsers.Clr;
using System.Text.Json;

static class Program
{
    static string F(double d) => double.IsNaN(d) ? "NaN" : d.ToString("R", CultureInfo.InvariantCulture);

    static int Main(string[] args)
    {
        if (args.Length < 1) { Console.Error.WriteLine("usage: GcOracle TRACE [--rollup]"); return 2; }
        bool rollup = args.Contains("--rollup");
        if (args.Contains("--stacks")) return Stacks(args[0]);
        if (args.Contains("--alloc-types")) return AllocTypes(args[0]);
        using var source = new EventPipeEventSource(args[0]);
        if (args.Contains("--events"))
        {
            // Keyed by (provider, id): no string built per event; names are looked up once per key.
            var counts = new Dictionary<(Guid, int), int>();
            var names = new Dictionary<(Guid, int), string>();
            Action<TraceEvent> count = e =>
            {
                var key = (e.ProviderGuid, (int)e.ID);
                if (counts.TryGetValue(key, out int n)) counts[key] = n + 1;
                else
                {
                    counts[key] = 1;
                    names[key] = e.ProviderName + "/" + e.EventName;
                }
            };
            // The CLR parser and the dynamic (self-describing) parser decode names and fields the
            // way TraceEvent users get them; whatever neither knows arrives as unhandled.
            source.Clr.All += count;
            source.Dynamic.All += count;
            source.UnhandledEvents += count;
            source.Process();
            foreach (var kv in counts.OrderByDescending(kv => kv.Value)) Console.Out.WriteLine($"{kv.Value} {names[kv.Key]}");
            return 0;
        }
        source.NeedLoadedDotNetRuntimes();
        source.Process();
        var runtimes = source.Processes().Select(p => p.LoadedDotNetRuntime()).Where(r => r != null).ToList();
        // Stats() recomputes every completed GC's metrics with all events seen (what PerfView's
        // report shows); call it before reading the per-GC values.
        foreach (var rt in runtimes) rt!.GC.Stats();
        var gcs = runtimes.SelectMany(r => r!.GC.GCs).ToList();
        var w = Console.Out;
        if (args.Contains("--loh-waits"))
        {
            w.WriteLine("Number,ThreadId,Reason,WaitStartRelativeMSec,WaitStopRelativeMSec");
            foreach (var gc in gcs)
            {
                if (gc.LOHWaitThreads == null) continue;
                foreach (var kv in gc.LOHWaitThreads.OrderBy(kv => kv.Key))
                    w.WriteLine(string.Join(",", gc.Number.ToString(CultureInfo.InvariantCulture), kv.Key.ToString(CultureInfo.InvariantCulture), ((int)kv.Value.Reason).ToString(CultureInfo.InvariantCulture), F(kv.Value.WaitStartRelativeMSec), F(kv.Value.WaitStopRelativeMSec)));
            }
            return 0;
        }
        if (rollup)
        {
            w.WriteLine("Gen,Count,NumInduced,TotalPauseTimeMSec,MaxPauseDurationMSec,MeanPauseDurationMSec,MaxSuspendDurationMSec,TotalAllocatedMB,MaxAllocRateMBSec,TotalSizeAfterMB,MaxSizePeakMB,TotalPromotedMB,PauseTimePercentage");
            foreach (var rt in runtimes)
            {
                var all = rt!.GC.Stats();
                w.WriteLine(string.Join(",", "ALL", all.Count, all.NumInduced, F(all.TotalPauseTimeMSec), F(all.MaxPauseDurationMSec), F(all.MeanPauseDurationMSec), F(all.MaxSuspendDurationMSec), F(all.TotalAllocatedMB), F(all.MaxAllocRateMBSec), F(all.TotalSizeAfterMB), F(all.MaxSizePeakMB), F(all.TotalPromotedMB), F(all.GetGCPauseTimePercentage())));
                var gens = rt.GC.Generations();
                for (int g = 0; g < gens.Length; g++)
                {
                    var s = gens[g];
                    if (s == null) continue;
                    w.WriteLine(string.Join(",", g, s.Count, s.NumInduced, F(s.TotalPauseTimeMSec), F(s.MaxPauseDurationMSec), F(s.MeanPauseDurationMSec), F(s.MaxSuspendDurationMSec), F(s.TotalAllocatedMB), F(s.MaxAllocRateMBSec), F(s.TotalSizeAfterMB), F(s.MaxSizePeakMB), F(s.TotalPromotedMB), ""));
                }
            }
            return 0;
        }
        w.WriteLine("Number,Generation,Type,Reason,GCGenerationName,IsComplete,PauseStartRelativeMSec,StartRelativeMSec,SuspendDurationMSec,PauseDurationMSec,DurationMSec,DurationSinceLastRestartMSec,PauseTimePercentageSinceLastGC,HeapSizeBeforeMB,HeapSizeAfterMB,HeapSizePeakMB,PromotedMB,AllocedSinceLastGCMB,AllocRateMBSec,Gen0AllocMB,LohAllocMB,Gen0SizeAfterMB,Gen1SizeAfterMB,Gen2SizeAfterMB,LohSizeAfterMB,PohSizeAfterMB,Gen0SizeBeforeMB,Gen1SizeBeforeMB,Gen2SizeBeforeMB,LohSizeBeforeMB,PohSizeBeforeMB,Gen0SurvivalPercent,Gen1SurvivalPercent,Gen2SurvivalPercent,LohSurvivalPercent,PohSurvivalPercent,Gen0FragmentationPercent,Gen1FragmentationPercent,Gen2FragmentationPercent,LohFragmentationPercent,PohFragmentationPercent,Gen0BudgetMB,FinalizationPromotedMB,PinnedObjectCount,HeapCount,PerHeapHistories");
        foreach (var gc in gcs)
        {
            var hs = gc.HeapStats;
            var cols = new List<string>
            {
                gc.Number.ToString(CultureInfo.InvariantCulture), gc.Generation.ToString(CultureInfo.InvariantCulture), gc.Type.ToString(), gc.Reason.ToString(), gc.GCGenerationName?.ToString() ?? "", gc.IsComplete.ToString(),
                F(gc.PauseStartRelativeMSec), F(gc.StartRelativeMSec), F(gc.SuspendDurationMSec), F(gc.PauseDurationMSec), F(gc.DurationMSec), F(gc.DurationSinceLastRestartMSec), F(gc.PauseTimePercentageSinceLastGC),
                F(gc.HeapSizeBeforeMB), F(gc.HeapSizeAfterMB), F(gc.HeapSizePeakMB), F(gc.PromotedMB), F(gc.AllocedSinceLastGCMB), F(gc.AllocRateMBSec),
                F(gc.UserAllocated[(int)Gens.Gen0]), F(gc.UserAllocated[(int)Gens.GenLargeObj]),
            };
            foreach (var g in new[] { Gens.Gen0, Gens.Gen1, Gens.Gen2, Gens.GenLargeObj, Gens.GenPinObj }) cols.Add(F(gc.GenSizeAfterMB(g)));
            foreach (var g in new[] { Gens.Gen0, Gens.Gen1, Gens.Gen2, Gens.GenLargeObj, Gens.GenPinObj }) cols.Add(F(gc.GenSizeBeforeMB[(int)g]));
            foreach (var g in new[] { Gens.Gen0, Gens.Gen1, Gens.Gen2, Gens.GenLargeObj, Gens.GenPinObj }) cols.Add(F(gc.SurvivalPercent(g)));
            foreach (var g in new[] { Gens.Gen0, Gens.Gen1, Gens.Gen2, Gens.GenLargeObj, Gens.GenPinObj }) cols.Add(F(gc.GenFragmentationPercent(g)));
            cols.Add(F(gc.GenBudgetMB(Gens.Gen0)));
            cols.Add(hs == null ? "" : F(hs.FinalizationPromotedSize / 1000000.0));
            cols.Add(hs == null ? "" : hs.PinnedObjectCount.ToString(CultureInfo.InvariantCulture));
            cols.Add(gc.HeapCount.ToString(CultureInfo.InvariantCulture));
            cols.Add((gc.PerHeapHistories?.Count ?? 0).ToString(CultureInfo.InvariantCulture));
            w.WriteLine(string.Join(",", cols));
        }
        return 0;
    }

    static int Stacks(string trace)
    {
        string etlx = Path.Combine(Path.GetTempPath(), $"gcoracle-{Environment.ProcessId}.etlx");
        Microsoft.Diagnostics.Tracing.Etlx.TraceLog.CreateFromEventPipeDataFile(trace, etlx);
        try
        {
            using var log = new Microsoft.Diagnostics.Tracing.Etlx.TraceLog(etlx);
            int ticks = 0;
            var w = Console.Out;
            foreach (var e in log.Events)
            {
                string kind;
                if (e is GCTriggeredTraceData) kind = "GC/Triggered";
                else if (e is GCAllocationTickTraceData) { if (ticks++ % 10 != 0) continue; kind = "GC/AllocationTick"; }
                else continue;
                var frames = new List<string[]>();
                for (var cs = e.CallStack(); cs != null; cs = cs.Caller)
                    frames.Add(new[] { ((ulong)cs.CodeAddress.Address).ToString("x", CultureInfo.InvariantCulture), cs.CodeAddress.FullMethodName ?? "" });
                w.WriteLine(JsonSerializer.Serialize(new Dictionary<string, object> { ["event"] = kind, ["msec"] = F(e.TimeStampRelativeMSec), ["frames"] = frames }));
            }
        }
        finally
        {
            File.Delete(etlx);
        }
        return 0;
    }

    static int AllocTypes(string trace)
    {
        using var source = new EventPipeEventSource(trace);
        var sums = new SortedDictionary<(string type, string kind), (long count, long amount, long size)>();
        source.Clr.GCAllocationTick += d =>
        {
            var key = (d.TypeName, d.AllocationKind.ToString());
            sums.TryGetValue(key, out var v);
            sums[key] = (v.count + 1, v.amount + d.AllocationAmount64, v.size + d.ObjectSize);
        };
        source.Process();
        // Type names can hold commas (generic arguments): the type is the last column, quoted.
        Console.Out.WriteLine("AllocationKind,Ticks,AllocationAmount64,ObjectSize,TypeName");
        foreach (var kv in sums) Console.Out.WriteLine($"{kv.Key.kind},{kv.Value.count},{kv.Value.amount},{kv.Value.size},\"{kv.Key.type}\"");
        return 0;
    }
}
