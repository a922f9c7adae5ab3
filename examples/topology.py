"""A topology sweep (every placement of 8 nodes on a ring), a search (tabu) where a sweep is out of reach, and a
proof (branch and bound) that a placement is the best.

    PYTHONPATH=build/python python3 examples/topology.py
"""
import kernelscope as ks

# Exhaustive: all 8! = 40320 placements of a generated traffic matrix on a ring of 8 positions.
sweep = ks.topo(generate="uniform:n=8,seed=2", topology="ring", placements="all", top=3)
best = sweep.report["best"]
print(f"sweep: {sweep.report['placements']['count']} placements, "
      f"best cost {best['cost']}: {' '.join(best['placement'])}")
for t in sweep.report["top"]["placements"]:
    print(f"  top: cost {t['cost']}  {' '.join(t['placement'])}")

# Search: 20 nodes on a 5x4 torus (20! placements), tabu search for 2000 iterations per chain; a seeded search
# with an iteration limit gives the same answer every time.
def show(fraction, text):
    pass  # a progress bar would go here: fraction of the search done, and the best so far in `text`

search = ks.topo(generate="uniform:n=20,seed=2", topology="torus:5x4", placements="search", iterations=2000,
                 seed=1, progress=show)
print(f"search: best cost {search.report['best']['cost']} after {search.report['stopped_by']}")

# Proof: branch and bound bounds whole subtrees of placements and skips those that cannot beat the best known,
# until none is left: "optimal" then means no placement of these 10 nodes on the ring costs less.
proof = ks.topo(generate="uniform:n=10,seed=2", topology="ring", placements="bnb", time=60)
p = proof.report["proof"]
print(f"proof: best cost {proof.report['best']['cost']}, {'proved optimal' if p['optimal'] else 'not proved'} "
      f"({p['nodes']} nodes, root bound {p['root_bound']})")
