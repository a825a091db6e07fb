/* Offline helper of bench/find_schedules.py (never used by tourney itself).

   Knuth's Algorithm X with dancing links: choose rows so that every primary column is
   covered exactly once and every secondary column at most once.

   Input (stdin): columns, primary columns (the first ones), rows; then each row as its
   number of columns followed by their indices. Argument: the most search nodes.
   Output: "found N" and the N rows chosen (indices from 0), or "none NODES" with
   "limit" when the search was cut short. Build: cc -O2 -o exact_cover exact_cover.c */
#include <stdio.h>
#include <stdlib.h>
static int *L, *R, *U, *D, *C, *S, *ROW, ncols, nprim;
static long long nodes, maxnodes;
static int *sol, depth;
static void cover(int c){
  L[R[c]] = L[c]; R[L[c]] = R[c];
  for(int i = D[c]; i != c; i = D[i])
    for(int j = R[i]; j != i; j = R[j]){ U[D[j]] = U[j]; D[U[j]] = D[j]; S[C[j]]--; }
}
static void uncover(int c){
  for(int i = U[c]; i != c; i = U[i])
    for(int j = L[i]; j != i; j = L[j]){ S[C[j]]++; U[D[j]] = j; D[U[j]] = j; }
  L[R[c]] = c; R[L[c]] = c;
}
static int search(void){
  if(R[0] == 0) return 1;
  if(++nodes > maxnodes) return 0;
  int c = R[0], best = c;
  for(; c != 0; c = R[c]) if(S[c] < S[best]) best = c;
  if(S[best] == 0) return 0;
  cover(best);
  for(int r = D[best]; r != best; r = D[r]){
    sol[depth++] = ROW[r];
    for(int j = R[r]; j != r; j = R[j]) cover(C[j]);
    if(search()) return 1;
    for(int j = L[r]; j != r; j = L[j]) uncover(C[j]);
    depth--;
    if(nodes > maxnodes) break;
  }
  uncover(best);
  return 0;
}
int main(int argc, char **argv){
  int nrows;
  maxnodes = argc > 1 ? atoll(argv[1]) : 100000000LL;
  if(scanf("%d %d %d", &ncols, &nprim, &nrows) != 3) return 2;
  int cap = ncols + 1 + 64 * nrows + 16;
  L = malloc(cap*sizeof(int)); R = malloc(cap*sizeof(int)); U = malloc(cap*sizeof(int));
  D = malloc(cap*sizeof(int)); C = malloc(cap*sizeof(int)); S = calloc(ncols+1, sizeof(int));
  ROW = malloc(cap*sizeof(int)); sol = malloc((nrows+1)*sizeof(int));
  /* headers 1..ncols; primary ones linked to the root 0, secondary ones to themselves */
  L[0] = nprim; R[0] = nprim ? 1 : 0;
  for(int c = 1; c <= ncols; c++){
    U[c] = D[c] = c; C[c] = c;
    if(c <= nprim){ L[c] = c-1; R[c] = c == nprim ? 0 : c+1; }
    else { L[c] = R[c] = c; }
  }
  int next = ncols + 1;
  for(int r = 0; r < nrows; r++){
    int k; if(scanf("%d", &k) != 1) return 2;
    int first = -1;
    for(int i = 0; i < k; i++){
      int c; if(scanf("%d", &c) != 1) return 2;
      c++;  /* columns from 1 */
      int x = next++;
      C[x] = c; ROW[x] = r; S[c]++;
      U[x] = U[c]; D[x] = c; D[U[c]] = x; U[c] = x;
      if(first < 0){ first = x; L[x] = R[x] = x; }
      else { L[x] = L[first]; R[x] = first; R[L[first]] = x; L[first] = x; }
    }
  }
  if(search()){
    printf("found %d\n", depth);
    for(int i = 0; i < depth; i++) printf("%d%c", sol[i], i == depth-1 ? '\n' : ' ');
  } else printf("none %lld%s\n", nodes, nodes > maxnodes ? " limit" : "");
  return 0;
}
