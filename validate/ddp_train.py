#!/usr/bin/python3
"""ddp_train.py - PyTorch DistributedDataParallel training for the validation
loop (validate/validate.pl, docs/validation.md).

One process per rank, started by mpirun (one rank per emulated host): the rank
and the world size come from Open MPI's environment (OMPI_COMM_WORLD_RANK,
OMPI_COMM_WORLD_SIZE), the rendezvous is rank 0's address (--master, the first
emulated host) and the gloo backend carries the gradients over the interface
--ifname (eth0 in an emulated host).  CPU only, one compute thread per rank.

Each step: a batch from a torch DataLoader over a directory of JPEG files
(generated once, deterministically, with PIL), decoded and augmented by
torchvision transforms (RandomResizedCrop, RandomHorizontalFlip, ColorJitter,
ToTensor, Normalize), with --loader-workers 0 (inline) or more worker
processes; forward and backward of a torchvision model (resnet18,
mobilenet_v2, ...) wrapped in DistributedDataParallel(bucket_cap_mb=...),
which all-reduces gradient buckets while the backward pass continues; an SGD
step.

Without mpirun (or with --strategy none) it runs one rank without DDP: the
single-host measurement.  --measure-loader N times N samples of the input
pipeline on one thread (decode, augment, collate) and prints the cost per
sample instead of training.  --measure-allreduce MB times gloo all-reduces
of MB megabytes of float32 alone (no model, no loader) across the ranks and
prints the median (as p50_s and time_s, the form `dtplan calibrate
--coll-cmd` reads): the collective's speed on the emulated link without
training beside it.

Rank 0 prints one line per step and, last, one JSON line: mean, p50 and p95
step time after the warm-up, the mean load (waiting for the batch), forward +
backward (with the overlapped all-reduce when distributed) and optimizer
parts, the parameters and forward FLOPs per sample of the model.

Usage: python3 validate/ddp_train.py [--model resnet18] [--batch 16]
  [--crop 64] [--img 96] [--images 512] [--data DIR] [--bucket-mb 25] [--first-bucket-mb 1]
  [--loader-workers 0] [--prefetch 2] [--steps 15] [--warmup 3] [--seed 1]
  [--classes 100] [--strategy ddp|none] [--master ADDR] [--port N]
  [--ifname IF] [--measure-loader N] [--measure-allreduce MB]
"""
import json
import os
import sys
import time


def die(msg):
    sys.stderr.write("ddp_train: " + msg + "\n")
    sys.exit(2)


def parse_args(argv):
    o = {"model": "resnet18", "batch": 16, "crop": 64, "img": 96, "images": 512, "data": "",
         "bucket-mb": 25.0, "first-bucket-mb": 1.0, "loader-workers": 0, "prefetch": 2, "steps": 15, "warmup": 3, "seed": 1,
         "classes": 100, "strategy": "ddp", "master": "127.0.0.1", "port": 29511, "ifname": "",
         "measure-loader": 0, "measure-allreduce": 0.0}
    ints = {"batch": 1, "crop": 8, "img": 8, "images": 1, "loader-workers": 0, "prefetch": 1, "steps": 1,
            "warmup": 0, "seed": 0, "classes": 2, "port": 1024, "measure-loader": 0}
    i = 0
    while i < len(argv):
        f = argv[i]
        if not f.startswith("--") or f[2:] not in o:
            die("%s: unknown flag" % f)
        if i + 1 >= len(argv):
            die("%s: expected a value" % f)
        k, v = f[2:], argv[i + 1]
        i += 2
        if k in ints:
            try:
                n = int(v)
            except ValueError:
                die("%s: expected an integer, found \"%s\"" % (f, v))
            if n < ints[k]:
                die("%s: expected at least %d, found \"%s\"" % (f, ints[k], v))
            o[k] = n
        elif k in ("bucket-mb", "first-bucket-mb", "measure-allreduce"):
            try:
                x = float(v)
            except ValueError:
                x = -1.0
            if not x > 0:
                die("%s: expected a positive number (MiB), found \"%s\"" % (f, v))
            o[k] = x
        elif k == "strategy":
            if v not in ("ddp", "none"):
                die("%s: expected ddp or none, found \"%s\"" % (f, v))
            o[k] = v
        else:
            o[k] = v
    if o["crop"] > o["img"]:
        die("--crop: expected at most --img (%d), found \"%d\"" % (o["img"], o["crop"]))
    if not o["data"]:
        o["data"] = os.path.join(os.environ.get("TMPDIR", "/tmp"), "dtplan-ddp-jpeg")
    return o


def make_images(o):
    """The JPEG files, made once: smooth colour fields with noise and shapes,
    so that they compress and decode like photographs rather than like
    noise.  Deterministic: the same seed, the same bytes."""
    import random
    from PIL import Image, ImageDraw, ImageFilter
    d = os.path.join(o["data"], "%d-%d" % (o["img"], o["images"]))
    done = os.path.join(d, "done")
    if os.path.exists(done):
        return d
    os.makedirs(d, exist_ok=True)
    rnd = random.Random(12345)
    s = o["img"]
    for i in range(o["images"]):
        base = tuple(rnd.randrange(256) for _ in range(3))
        im = Image.new("RGB", (s, s), base)
        dr = ImageDraw.Draw(im)
        for _ in range(6):
            x0, y0 = rnd.randrange(s), rnd.randrange(s)
            x1, y1 = x0 + rnd.randrange(4, s // 2), y0 + rnd.randrange(4, s // 2)
            col = tuple(rnd.randrange(256) for _ in range(3))
            (dr.ellipse if rnd.random() < 0.5 else dr.rectangle)([x0, y0, x1, y1], fill=col)
        noise = Image.frombytes("RGB", (s, s), bytes(rnd.randrange(256) for _ in range(s * s * 3)))
        im = Image.blend(im.filter(ImageFilter.GaussianBlur(1.5)), noise, 0.15)
        tmp = os.path.join(d, "%05d.jpg.tmp%d" % (i, os.getpid()))
        im.save(tmp, "JPEG", quality=90)
        os.replace(tmp, os.path.join(d, "%05d.jpg" % i))
    with open(done + ".tmp%d" % os.getpid(), "w") as fh:
        fh.write("%d\n" % o["images"])
    os.replace(done + ".tmp%d" % os.getpid(), done)
    return d


def dataset(o, d):
    import torch
    from PIL import Image
    import torchvision.transforms as T
    tf = T.Compose([T.RandomResizedCrop(o["crop"]), T.RandomHorizontalFlip(),
                    T.ColorJitter(0.4, 0.4, 0.4), T.ToTensor(),
                    T.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])])
    files = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".jpg"))
    classes = o["classes"]

    class Jpegs(torch.utils.data.Dataset):
        def __len__(self):
            return len(files)

        def __getitem__(self, i):
            with Image.open(files[i]) as im:
                x = tf(im.convert("RGB"))
            return x, i % classes

    return Jpegs()


def ddp_buckets(model, cap_mb, first_mb):
    """The gradient buckets DDP forms once it has seen a backward pass, in the
    order they are all-reduced: parameters taken in the order their gradients
    appear (the reverse of registration for these sequential models), whole
    tensors, the first bucket closed at first_mb (DDP's default: 1 MiB,
    dist._DEFAULT_FIRST_BUCKET_BYTES), the others at bucket_cap_mb.  Sizes in
    bytes."""
    import torch.distributed as dist
    ps = list(model.parameters())[::-1]
    idx, _ = dist._compute_bucket_assignment_by_size(
        ps, [int(first_mb * 1024 * 1024), int(cap_mb * 1024 * 1024)], [False] * len(ps))
    return [sum(ps[i].numel() * ps[i].element_size() for i in b) for b in idx]


def fwd_flops(model, crop):
    """Forward FLOPs per sample of the convolutions and linear layers (2 per
    multiply-add), counted with forward hooks on one image."""
    import torch
    total = [0]

    def conv(m, inp, out):
        k = m.kernel_size[0] * m.kernel_size[1]
        total[0] += 2 * (m.in_channels // m.groups) * k * out.numel()

    def lin(m, inp, out):
        total[0] += 2 * m.in_features * out.numel()

    hs = []
    for m in model.modules():
        if isinstance(m, torch.nn.Conv2d):
            hs.append(m.register_forward_hook(conv))
        elif isinstance(m, torch.nn.Linear):
            hs.append(m.register_forward_hook(lin))
    was = model.training
    model.eval()
    with torch.no_grad():
        model(torch.zeros(1, 3, crop, crop))
    model.train(was)
    for h in hs:
        h.remove()
    return total[0]


def cv(v):
    """The spread of rank 0's step times, robust to a machine's bursts:
    1.4826 x the median absolute deviation over the median."""
    med = quantile(v, 0.5)
    return 1.4826 * quantile([abs(x - med) for x in v], 0.5) / med if med > 0 else 0.0


def quantile(v, q):
    v = sorted(v)
    if not v:
        return 0.0
    x = q * (len(v) - 1)
    lo = int(x)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (x - lo)


def main():
    o = parse_args(sys.argv[1:])
    import torch
    import torch.distributed as dist
    import torchvision
    torch.set_num_threads(1)
    torch.manual_seed(o["seed"])
    d = make_images(o)
    ds = dataset(o, d)

    if o["measure-loader"]:
        from torch.utils.data import default_collate
        n = o["measure-loader"]
        g = torch.Generator().manual_seed(o["seed"])
        idx = torch.randint(len(ds), (n,), generator=g).tolist()
        for i in idx[:8]:
            ds[i]
        t0 = time.perf_counter()
        for b in range(0, n, o["batch"]):
            default_collate([ds[i] for i in idx[b:b + o["batch"]]])
        t1 = time.perf_counter()
        print(json.dumps({"loader_s_per_sample": (t1 - t0) / n, "samples": n}))
        return 0

    rank = int(os.environ.get("OMPI_COMM_WORLD_RANK", "0"))
    size = int(os.environ.get("OMPI_COMM_WORLD_SIZE", "1"))
    distributed = o["strategy"] == "ddp" and size > 1
    if o["strategy"] == "none" and size > 1:
        die("--strategy none runs on one rank, found %d ranks" % size)
    if distributed:
        if o["ifname"]:
            os.environ["GLOO_SOCKET_IFNAME"] = o["ifname"]
        dist.init_process_group("gloo", init_method="tcp://%s:%d" % (o["master"], o["port"]),
                                rank=rank, world_size=size)

    if o["measure-allreduce"]:
        if not distributed:
            die("--measure-allreduce: expected at least 2 ranks under mpirun, found %d" % size)
        t = torch.ones(int(o["measure-allreduce"] * 1e6 / 4))
        ts = []
        for _ in range(o["warmup"] + o["steps"]):
            dist.barrier()
            t0 = time.perf_counter()
            dist.all_reduce(t)
            ts.append(time.perf_counter() - t0)
        if rank == 0:
            p50 = quantile(ts[o["warmup"]:], 0.5)
            print(json.dumps({"ranks": size, "allreduce_mb": o["measure-allreduce"], "p50_s": p50,
                              "time_s": p50}), flush=True)
        dist.barrier()
        sys.stdout.flush()
        os._exit(0)

    if not hasattr(torchvision.models, o["model"]):
        die("--model: expected a torchvision model name (resnet18, mobilenet_v2, ...), found \"%s\"" % o["model"])
    model = getattr(torchvision.models, o["model"])(num_classes=o["classes"])
    params = sum(p.numel() for p in model.parameters())
    buckets = ddp_buckets(model, o["bucket-mb"], o["first-bucket-mb"])
    flops = fwd_flops(model, o["crop"])
    net = model
    if distributed:
        dist._DEFAULT_FIRST_BUCKET_BYTES = int(o["first-bucket-mb"] * 1024 * 1024)
        net = torch.nn.parallel.DistributedDataParallel(model, bucket_cap_mb=o["bucket-mb"])
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4)
    lossf = torch.nn.CrossEntropyLoss()

    total = o["steps"] + o["warmup"]
    g = torch.Generator().manual_seed(o["seed"] * 1000 + rank)
    sampler = torch.utils.data.RandomSampler(ds, replacement=True, num_samples=total * o["batch"], generator=g)
    kw = {}
    if o["loader-workers"] > 0:
        kw = {"prefetch_factor": o["prefetch"], "persistent_workers": False}
    dl = torch.utils.data.DataLoader(ds, batch_size=o["batch"], sampler=sampler, drop_last=True,
                                     num_workers=o["loader-workers"], **kw)
    it = iter(dl)
    if distributed:
        dist.barrier()
    steps, loads, fbs, opts = [], [], [], []
    loss = None
    for s in range(total):
        t0 = time.perf_counter()
        x, y = next(it)
        t1 = time.perf_counter()
        opt.zero_grad(set_to_none=True)
        loss = lossf(net(x), y)
        loss.backward()
        t2 = time.perf_counter()
        opt.step()
        t3 = time.perf_counter()
        if rank == 0:
            print("step %d %.3f ms (load %.3f, fwd+bwd %.3f, optim %.3f)" %
                  (s, 1e3 * (t3 - t0), 1e3 * (t1 - t0), 1e3 * (t2 - t1), 1e3 * (t3 - t2)), flush=True)
        if s >= o["warmup"]:
            steps.append(t3 - t0)
            loads.append(t1 - t0)
            fbs.append(t2 - t1)
            opts.append(t3 - t2)
    del it
    n = len(steps)
    mine = [sum(loads) / n, sum(fbs) / n, sum(opts) / n]
    if distributed:
        t = torch.tensor(mine, dtype=torch.float64)
        dist.all_reduce(t)
        mine = (t / size).tolist()
    if rank == 0:
        print(json.dumps({"ranks": size, "model": o["model"], "params": params, "fwd_flops_per_sample": flops,
                          "batch": o["batch"], "bucket_mb": o["bucket-mb"], "loader_workers": o["loader-workers"],
                          "steps": n, "mean_step_s": sum(steps) / n, "p50_step_s": quantile(steps, 0.5),
                          "p95_step_s": quantile(steps, 0.95), "cv_step": cv(steps),
                          "load_s": mine[0], "fwd_bwd_s": mine[1],
                          "optim_s": mine[2], "compute_s": mine[1] + mine[2], "buckets_bytes": buckets,
                          "loss": float(loss)}), flush=True)
    if distributed:
        # Every rank has its figures; leave without gloo's teardown, which
        # once left a rank spinning after its peer had exited.
        dist.barrier()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
