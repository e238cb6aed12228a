// GCScope's request-latency test app (issue 42). Endpoints:
//   /fast           answers at once
//   /alloc?kb=N     allocates N KB of small objects and keeps some of them alive for a while, so
//                   gen0/gen1 GCs promote and gen2 GCs happen: pauses land inside requests;
//                   &lohkb=M also allocates one M KB array on the large object heap (gen2 GCs)
//   /sleep?ms=N     awaits N ms: slow for a reason that is not the GC
//   /gen2           induces a blocking gen2 GC during the request
// REQUESTS_APP_LIVE_MB=N keeps N MB of small objects alive from startup (default 0): a gen2 GC must
// mark them all, so with non-concurrent GC its pause grows with N.
// Prints "listening http://127.0.0.1:PORT" once Kestrel is bound (port 0 picks a free one).
using System.Runtime.CompilerServices;

var builder = WebApplication.CreateSlimBuilder(args);
builder.Logging.ClearProviders();
var app = builder.Build();

var liveMB = int.TryParse(Environment.GetEnvironmentVariable("REQUESTS_APP_LIVE_MB"), out var mb) ? mb : 0;
var live = new List<object[]>();
for (long bytes = 0; bytes < liveMB * 1_000_000L; bytes += 64 * 40)
{
    // 64 small objects per array: many references for the GC to trace.
    var a = new object[64];
    for (var i = 0; i < a.Length; i++) a[i] = new byte[16];
    live.Add(a);
}
GC.KeepAlive(live);

var survivors = new object?[65536];
var next = 0;
var gate = new object();

app.MapGet("/fast", () => "ok");
app.MapGet("/alloc", (int? kb, int? lohkb) =>
{
    // A large array (85,000 bytes or more) goes to the LOH, whose budget running out triggers a gen2 GC.
    if (lohkb is > 0) GC.KeepAlive(new byte[lohkb.Value * 1024]);
    var total = (kb ?? 256) * 1024;
    var list = new List<byte[]>();
    for (var done = 0; done < total; done += 128) list.Add(new byte[128]);
    lock (gate)
    {
        // Keep every 16th array past a few GCs: the older generations fill and must be collected.
        for (var i = 0; i < list.Count; i += 16) { survivors[next] = list[i]; next = (next + 1) % survivors.Length; }
    }
    return list.Count.ToString();
});
app.MapGet("/sleep", async (int? ms) => { await Task.Delay(ms ?? 50); return "slept"; });
app.MapGet("/gen2", () => { GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true); return "collected"; });

app.Urls.Add(args.Length > 0 ? args[0] : "http://127.0.0.1:0");
app.Start();
Console.WriteLine("listening " + app.Urls.First());
app.WaitForShutdown();
