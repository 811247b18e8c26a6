// bfs: level-synchronous breadth-first search over a graph in compressed
// sparse row form, one thread per node (the shape of GUFI's BFS, Table I).
// Each host iteration runs Kernel (the frontier expands into its unvisited
// neighbours) then Kernel2 (the new frontier is committed and the host's
// "another level" flag raised); the host stops when the flag stays down.
// bfs.c drives these kernels and checks the costs against a CPU BFS.
// PTX: nvcc -ptx -arch=sm_75 bfs.cu -o bfs.ptx

// A node's edges are edges[first .. first + degree).
struct Node {
	int first;
	int degree;
};

// Expands the frontier: every frontier node leaves it and gives each
// unvisited neighbour the cost one above its own. Several frontier nodes may
// reach the same neighbour; they all write the same cost (they are all on
// one level), so the race is benign.
__global__ void Kernel(Node *nodes, int *edges, bool *frontier, bool *next,
		       bool *visited, int *cost, int n)
{
	int id = blockIdx.x * blockDim.x + threadIdx.x;

	if (id >= n || !frontier[id])
		return;
	frontier[id] = false;
	int end = nodes[id].first + nodes[id].degree;
	for (int e = nodes[id].first; e < end; e++) {
		int v = edges[e];
		if (!visited[v]) {
			cost[v] = cost[id] + 1;
			next[v] = true;
		}
	}
}

// Commits the next frontier: its nodes become visited and frontier, and
// *more tells the host that another level exists.
__global__ void Kernel2(bool *frontier, bool *next, bool *visited, bool *more, int n)
{
	int id = blockIdx.x * blockDim.x + threadIdx.x;

	if (id >= n || !next[id])
		return;
	frontier[id] = true;
	visited[id] = true;
	*more = true;
	next[id] = false;
}
