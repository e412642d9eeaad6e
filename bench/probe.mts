import { startGateway } from './lib/gateway.ts';
const gw = await startGateway({ driver: 'postgres', url: 'postgres://postgres:postgres@127.0.0.1:5432/bench' });
const qs = process.argv.slice(2);
for (const q of qs.length ? qs : ['current=1&pageSize=20']) {
  const url = `${gw.origin}/api/orders?${q}`;
  const h = gw.headers();
  for (let i = 0; i < 20; i++) await (await fetch(url, { headers: h })).arrayBuffer();
  const ts: number[] = [];
  for (let i = 0; i < Number(process.env.N ?? 100); i++) { const t = performance.now(); const r = await fetch(url, { headers: h }); await r.arrayBuffer(); ts.push(performance.now() - t); }
  ts.sort((a, b) => a - b);
  console.log(q, 'p50', ts[Math.floor(ts.length / 2)].toFixed(2), 'p90', ts[Math.floor(ts.length * 0.9)].toFixed(2));
}
const t = performance.now(); for (let i = 0; i < 100; i++) await (await fetch(`${gw.origin}/api/plans`, { headers: gw.headers() })).arrayBuffer();
console.log('plans avg', ((performance.now() - t) / 100).toFixed(2));
await gw.close();
