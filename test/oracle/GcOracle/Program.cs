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
// Numbers use the invariant culture and round-trip ("R") formatting; NaN prints as NaN.
using System.Globalization;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Analysis;
using Microsoft.Diagnostics.Tracing.Analysis.GC;
using Microsoft.Diagnostics.Tracing.Parsers.Clr;

static class Program
{
    static string F(double d) => double.IsNaN(d) ? "NaN" : d.ToString("R", CultureInfo.InvariantCulture);

    static int Main(string[] args)
    {
        if (args.Length < 1) { Console.Error.WriteLine("usage: GcOracle TRACE [--rollup]"); return 2; }
        bool rollup = args.Contains("--rollup");
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
}
