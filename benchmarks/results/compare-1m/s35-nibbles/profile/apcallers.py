import sys, collections
f,frame=sys.argv[1],sys.argv[2]; up=int(sys.argv[3]) if len(sys.argv)>3 else 2
c=collections.Counter()
for line in open(f):
    st,n=line.rstrip().rsplit(' ',1); fr=st.split(';')
    for i,x in enumerate(fr):
        if frame in x:
            c[' <- '.join(y.split('/')[-1] for y in reversed(fr[max(0,i-up):i+1]))]+=int(n); break
for k,v in c.most_common(12): print(v,k)
