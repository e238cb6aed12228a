// A process holding a fixed, known heap for the heap-snapshot tests (issue 38): a static
// Dictionary<int, Customer> of N customers (each a name string, a byte[100], an Order[3] and a
// link to the previous customer), a ConditionalWeakTable, an LOH object[20000], a thread-static
// list and a stack local. It prints "ready" and then idles, so two heap walks see the same heap.
// Each "grow N" line on stdin adds N customers to the static (a leak), then prints "grown".
using System.Runtime.CompilerServices;

public sealed class Order
{
    public int Id;
    public decimal Amount;
    public Order(int id) { Id = id; Amount = id * 1.5m; }
}

public sealed class Customer
{
    public string Name;
    public byte[] Photo = new byte[100];
    public Order[] Orders = new Order[3];
    public Customer Previous;
    public Customer(int id, Customer previous)
    {
        Name = "customer-" + id;
        for (int i = 0; i < Orders.Length; i++) Orders[i] = new Order(id * 10 + i);
        Previous = previous;
    }
}

public sealed class Tag { public string Label; }

public static class Cache
{
    public static readonly Dictionary<int, Customer> Customers = new();
    public static readonly ConditionalWeakTable<Customer, Tag> Tags = new();
    public static object[] Big = new object[20000];
    [ThreadStatic] public static List<string> PerThread;
    static Customer last;

    public static void Add(int count)
    {
        int start = Customers.Count;
        for (int i = start; i < start + count; i++)
        {
            last = new Customer(i, last);
            Customers.Add(i, last);
            if (i % 100 == 0) Tags.Add(last, new Tag { Label = "tag-" + i });
        }
    }
}

public static class Program
{
    public static int Main(string[] args)
    {
        int n = args.Length > 0 ? int.Parse(args[0]) : 3000;
        Cache.Add(n);
        for (int i = 0; i < Cache.Big.Length; i += 1000) Cache.Big[i] = "big-" + i;
        Cache.PerThread = new List<string> { "a", "b", "c" };
        var local = new List<int>(Enumerable.Range(0, 100));
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
        Console.WriteLine("ready " + Environment.ProcessId);
        string line;
        while ((line = Console.ReadLine()) != null)
        {
            if (line.StartsWith("grow "))
            {
                Cache.Add(int.Parse(line.Substring(5)));
                GC.Collect();
                Console.WriteLine("grown " + Cache.Customers.Count);
            }
            else if (line == "exit") break;
        }
        GC.KeepAlive(local);
        return 0;
    }
}
