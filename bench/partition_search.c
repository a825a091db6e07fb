/* Offline helper of bench/find_schedules.py (never used by tourney itself).

   Tabu search, after Dotu and Van Hentenryck's local search for the social golfer
   problem: split n points into blocks of K, each block inside one part, so that no
   pair class is used more often than its capacity. The cost is the sum over classes
   of the uses beyond capacity; a step makes the best swap of a point in conflict
   with a point of another block of its part (a swap undoing a recent one is tabu
   unless it beats the best cost), and after 2000 steps without progress a few
   random swaps shake the state.

   Input (stdin): n K C, then cap[C], part[n] (points of a part consecutive, each
   part a multiple of K), then the class of every ordered pair, cls[n][n].
   Arguments: seed, maximum steps, optionally the most CPU seconds. Output: the best cost and the steps taken, then
   the points block by block (K per block). Build: cc -O2 -o partition_search
   partition_search.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static int n, K, C, *cap, *part, *cls, *cnt, *blk, *members, nb, *tabu;
static unsigned long long rs;
static unsigned rnd(void){ rs ^= rs<<13; rs ^= rs>>7; rs ^= rs<<17; return (unsigned)(rs>>11); }
#define CL(p,q) cls[(p)*n+(q)]
static int over(int c){ int o = cnt[c]-cap[c]; return o>0?o:0; }
static int swap_delta(int a, int b, int apply){
  int A = blk[a], B = blk[b], d = 0, i, x, c;
  int ch[64][2], m = 0;
  for(i=0;i<K;i++){ x = members[A*K+i]; if(x!=a){ ch[m][0]=CL(a,x); ch[m++][1]=-1; ch[m][0]=CL(b,x); ch[m++][1]=1; } }
  for(i=0;i<K;i++){ x = members[B*K+i]; if(x!=b){ ch[m][0]=CL(b,x); ch[m++][1]=-1; ch[m][0]=CL(a,x); ch[m++][1]=1; } }
  for(i=0;i<m;i++){ c=ch[i][0]; int o=over(c); cnt[c]+=ch[i][1]; d+=over(c)-o; }
  if(!apply) for(i=m-1;i>=0;i--) cnt[ch[i][0]]-=ch[i][1];
  else {
    int ia=-1, ib=-1;
    for(i=0;i<K;i++){ if(members[A*K+i]==a) ia=i; if(members[B*K+i]==b) ib=i; }
    members[A*K+ia]=b; members[B*K+ib]=a; blk[a]=B; blk[b]=A;
  }
  return d;
}
static int total(void){ int c, s=0; for(c=0;c<C;c++) s+=over(c); return s; }
static int conflicted(int a){ int A=blk[a], i, x; for(i=0;i<K;i++){ x=members[A*K+i]; if(x!=a && cnt[CL(a,x)]>cap[CL(a,x)]) return 1; } return 0; }
int main(int argc, char **argv){
  int i, j;
  if(scanf("%d %d %d", &n, &K, &C)!=3) return 2;
  cap = malloc(C*sizeof(int)); cnt = calloc(C, sizeof(int));
  part = malloc(n*sizeof(int)); cls = malloc((size_t)n*n*sizeof(int));
  for(i=0;i<C;i++) if(scanf("%d",&cap[i])!=1) return 2;
  for(i=0;i<n;i++) if(scanf("%d",&part[i])!=1) return 2;
  for(i=0;i<n*n;i++) if(scanf("%d",&cls[i])!=1) return 2;
  rs = 88172645463325252ULL ^ (argc>1 ? strtoull(argv[1],0,10)*2654435761ULL : 1);
  long long maxsteps = argc>2 ? atoll(argv[2]) : 10000000;
  double maxcpu = argc>3 ? atof(argv[3]) : 0;
  nb = n/K; blk = malloc(n*sizeof(int)); members = malloc(n*sizeof(int));
  tabu = calloc((size_t)n*nb, sizeof(int));
  /* shuffle within parts, then chunk */
  int *order = malloc(n*sizeof(int)); for(i=0;i<n;i++) order[i]=i;
  for(i=n-1;i>0;i--){ j = rnd()%(i+1); if(part[order[i]]==part[order[j]]){ int t=order[i]; order[i]=order[j]; order[j]=t; } }
  /* stable: points must be grouped by part in input order */
  for(i=0;i<n;i++){ members[i]=order[i]; blk[order[i]]=i/K; }
  for(i=0;i<nb;i++){ int a,b; for(a=0;a<K;a++) for(b=a+1;b<K;b++) cnt[CL(members[i*K+a],members[i*K+b])]++; }
  int cost = total(), best = cost;
  int *bestblk = malloc(n*sizeof(int)); memcpy(bestblk, members, n*sizeof(int));
  long long step = 0, stall = 0;
  int *cand = malloc(n*sizeof(int));
  while(cost>0 && step<maxsteps){
    step++;
    if(maxcpu > 0 && (step & 63) == 0 && (double)clock() / CLOCKS_PER_SEC > maxcpu) break;
    int nc=0; for(i=0;i<n;i++) if(conflicted(i)) cand[nc++]=i;
    int bd=1<<30, na=0, ba=-1, bbp=-1;
    for(int ci=0;ci<nc;ci++){
      int a=cand[ci];
      for(int b=0;b<n;b++){
        if(blk[b]==blk[a] || part[b]!=part[a]) continue;
        if(conflicted(b) && b<a) continue; /* each pair once when both conflicted */
        int d = swap_delta(a,b,0);
        int tb = tabu[(size_t)a*nb+blk[b]]>step || tabu[(size_t)b*nb+blk[a]]>step;
        if(tb && cost+d>=best) continue;
        if(d<bd){ bd=d; na=1; ba=a; bbp=b; }
        else if(d==bd){ na++; if(rnd()%na==0){ ba=a; bbp=b; } }
      }
    }
    if(ba<0){ continue; }
    int A=blk[ba], B=blk[bbp];
    swap_delta(ba,bbp,1); cost+=bd;
    tabu[(size_t)ba*nb+A] = step + 3 + rnd()%10;
    tabu[(size_t)bbp*nb+B] = step + 3 + rnd()%10;
    if(cost<best){ best=cost; memcpy(bestblk,members,n*sizeof(int)); stall=0; }
    else if(++stall > 2000){
      stall=0;
      /* random walk: a few random swaps within parts */
      for(int r=0;r<3;r++){ int a=rnd()%n, b=rnd()%n; if(blk[a]!=blk[b] && part[a]==part[b]) cost+=swap_delta(a,b,1); }
    }
  }
  if(cost==0) memcpy(bestblk,members,n*sizeof(int));
  printf("%d %lld\n", best, step);
  for(i=0;i<n;i++) printf("%d%c", bestblk[i], i==n-1?'\n':' ');
  return 0;
}
