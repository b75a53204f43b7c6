import { chromium } from 'playwright-core';
const [,, url, out, w, h, full] = process.argv;
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless','--no-sandbox','--disable-gpu','--disable-background-networking','--disable-component-update','--disable-sync'] });
const p = await b.newPage({ viewport: { width: +w, height: +h }, locale: 'zh-CN' });
p.on('console', m => m.type()==='error' && console.log('console:', m.text()));
await p.goto(url); await p.waitForTimeout(2500);
await p.screenshot({ path: out, fullPage: full === 'full' });
await b.close();
