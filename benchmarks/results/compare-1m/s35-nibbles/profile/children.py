import sys, collections
f,frame=sys.argv[1],sys.argv[2]; depth=int(sys.argv[3]) if len(sys.argv)>3 else 1
c=collections.Counter(); tot=0
for line in open(f):
    st,n=line.rstrip().rsplit(' ',1); n=int(n); fr=st.split(';')
    for i,x in enumerate(fr):
        if frame in x:
            tot+=n
            ch=fr[i+1:i+1+depth]
            c[' > '.join(y.split('/')[-1] for y in ch) if ch else '(self)']+=n; break
print(frame, tot)
for k,v in c.most_common(15): print('  %6d %5.1f%% %s'%(v,100*v/tot,k))
