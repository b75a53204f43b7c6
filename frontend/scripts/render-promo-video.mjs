// Renders the group's promotional film 《通达欧亚》 (entry 1015 of the demo content) and its
// narration subtitles:
//
//   node scripts/render-promo-video.mjs                 film (MP4) + subtitles into reference-cms/content/files/videos/
//   node scripts/render-promo-video.mjs --stills 9,40   only PNG frames at those seconds (to /tmp), for checking a scene
//   node scripts/render-promo-video.mjs --verify        only play the files already written back in Chromium
//
// The film is drawn, not filmed: flat scenes in the style of the site's SVG illustrations, painted
// on a <canvas> in Debian's Chromium (playwright-core drives it) and recorded by the browser's own
// MediaRecorder from canvas.captureStream(). There is no speech synthesis here, so the film has no
// voice track: the narrator's lines are the WebVTT subtitles, written from the same table of cues
// as the timeline below, so a change to the script moves picture and subtitle together.
//
// MediaRecorder runs in real time: the animation reads the clock rather than counting frames, so
// a busy machine drops frames but never stretches the film against its subtitles. Its WebM has no
// duration in the header (it is written while recording); addDuration() below writes one into the
// Segment's Info, so players show the length and a seek bar from the start.
//
// The portal serves the film as H.264 in MP4 (issue 47: a WebM plays in no iPhone browser and in
// no older WeChat): the recording is transcoded by ffmpeg (Debian's, with libx264; installed when
// missing), 30 frames a second, limited-range BT.709, Main profile, the index at the front
// (faststart) so a player starts before the whole file has come. The WebM stays in /tmp.
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const OUT_DIR = join(here, '../../reference-cms/content/files/videos');
const WEBM = '/tmp/tongda-ouya.webm';
const MP4 = join(OUT_DIR, 'tongda-ouya.mp4');
const VTT = join(OUT_DIR, 'tongda-ouya.zh.vtt');

const WIDTH = 640;
const HEIGHT = 360;
const FPS = 25;
// The page plays the file from the CMS over the visitor's connection: the file must stay within
// 3 MB. VP9 spends less than the target on flat drawings (about three quarters of it here), so
// this target lands near 2.4 MB; main() refuses a file over the budget.
const BITS_PER_SECOND = 300_000;
const MAX_BYTES = 3 * 1024 * 1024;

/** Scenes in order, seconds from the start; a chapter's title card opens its first scene. The
 * chapter table on the page (entry 1015 in pages.json) gives these times: change both together. */
const SCENES = [
  { id: 'opening', from: 0, to: 7 },
  { id: 'yard', from: 7, to: 20, chapter: '第一篇章　陆港集结' },
  { id: 'customs', from: 20, to: 30 },
  { id: 'departure', from: 30, to: 36 },
  { id: 'journey', from: 36, to: 50, chapter: '第二篇章　万里同行' },
  { id: 'gauge', from: 50, to: 61 },
  { id: 'europe', from: 61, to: 74, chapter: '第三篇章　通达欧亚' },
  { id: 'map', from: 74, to: 83 },
  { id: 'closing', from: 83, to: 88 },
];
const DURATION = SCENES[SCENES.length - 1].to;

/** The narrator's lines: [from, to, text]. Timed to the scenes above, 4–6 characters a second. */
const NARRATION = [
  [1.0, 6.6, '每一天，都有班列从云川出发，\n驶向欧亚大陆的另一端。'],
  [7.6, 12.8, '清晨六点，\n云川国际陆港的龙门吊开始作业。'],
  [13.2, 19.6, '集装箱一个个吊上平车，\n在12条铁路装卸线旁等待编组。'],
  [20.4, 24.8, '海关监管作业场所就设在场站里，'],
  [25.0, 29.6, '报关、查验、放行，一站办结。'],
  [30.4, 35.6, '五十个集装箱、约一百标箱，\n一列班列准点发车。'],
  [36.6, 40.6, '向西，穿过戈壁；'],
  [41.4, 44.6, '越过草原。'],
  [45.0, 49.6, '到欧洲全程十四到十八天，\n约为海运时间的一半。'],
  [50.6, 55.4, '在边境口岸，\n铁路轨距由标准轨变为宽轨，'],
  [55.6, 60.6, '集装箱在这里换装到另一列车上，\n昼夜不停。'],
  [61.6, 66.6, '十几天后，班列抵达\n汉堡、杜伊斯堡和布达佩斯。'],
  [67.0, 73.4, '货物进入海外仓，\n再由当地的车辆送到客户手中。'],
  [74.2, 78.8, '十年来，集团累计开行\n中欧、中亚班列五千二百余列，'],
  [79.0, 82.8, '通达16个国家的58个城市。'],
  [83.4, 87.6, '通达天下，行稳致远。'],
];

function stamp(seconds) {
  const ms = Math.round(seconds * 1000);
  const h = String(Math.floor(ms / 3_600_000)).padStart(2, '0');
  const m = String(Math.floor(ms / 60_000) % 60).padStart(2, '0');
  const s = String(Math.floor(ms / 1000) % 60).padStart(2, '0');
  return `${h}:${m}:${s}.${String(ms % 1000).padStart(3, '0')}`;
}

function webvtt() {
  const minutes = `${Math.floor(DURATION / 60)}分${DURATION % 60}秒`;
  const lines = [
    'WEBVTT',
    '',
    'NOTE',
    `集团宣传片《通达欧亚》，时长${minutes}，动画插图画面。`,
    '影片没有配音（无声轨），解说词全部以本字幕呈现，每条字幕就是解说员的一句话。',
    '画面上的篇章标题和地图城市名不另作字幕，见宣传视频页面的章节表。',
    '由 frontend/scripts/render-promo-video.mjs 与画面同时生成。',
    '',
  ];
  NARRATION.forEach(([from, to, text], i) => {
    lines.push(`n${String(i + 1).padStart(2, '0')}`, `${stamp(from)} --> ${stamp(to)}`, text, '');
  });
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// The film itself: runs inside the page (playwright serialises this function), so it is
// self-contained. `opts.stills` set: returns PNG data URLs of those moments instead of recording.
// ---------------------------------------------------------------------------------------------
async function film(opts) {
  const { width, height, fps, bits, scenes, duration, stills } = opts;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  document.body.append(canvas);
  const c = canvas.getContext('2d');
  const FONT = "'Noto Sans CJK SC', sans-serif";

  const clamp = (v, a = 0, b = 1) => Math.min(b, Math.max(a, v));
  const lerp = (a, b, t) => a + (b - a) * t;
  const ease = (t) => {
    const x = clamp(t);
    return x * x * (3 - 2 * x);
  };
  const span = (t, a, b) => ease((t - a) / (b - a));
  const mix = (h1, h2, t) => {
    const p = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
    const [a, b] = [p(h1), p(h2)];
    return `rgb(${a.map((v, i) => Math.round(lerp(v, b[i], clamp(t)))).join(',')})`;
  };
  const rect = (x, y, w, h, fill) => {
    c.fillStyle = fill;
    c.fillRect(x, y, w, h);
  };
  const poly = (pts, fill) => {
    c.beginPath();
    c.moveTo(pts[0], pts[1]);
    for (let i = 2; i < pts.length; i += 2) c.lineTo(pts[i], pts[i + 1]);
    c.closePath();
    c.fillStyle = fill;
    c.fill();
  };
  const circle = (x, y, r, fill) => {
    c.beginPath();
    c.arc(x, y, r, 0, Math.PI * 2);
    c.fillStyle = fill;
    c.fill();
  };
  const line = (x1, y1, x2, y2, stroke, w = 2) => {
    c.beginPath();
    c.moveTo(x1, y1);
    c.lineTo(x2, y2);
    c.strokeStyle = stroke;
    c.lineWidth = w;
    c.stroke();
  };
  const text = (s, x, y, size, fill, align = 'center', weight = 400, alpha = 1) => {
    c.save();
    c.globalAlpha = alpha;
    c.font = `${weight} ${size}px ${FONT}`;
    c.textAlign = align;
    c.textBaseline = 'middle';
    c.fillStyle = fill;
    c.fillText(s, x, y);
    c.restore();
  };
  const sky = (top, bottom, h = height) => {
    const g = c.createLinearGradient(0, 0, 0, h);
    g.addColorStop(0, top);
    g.addColorStop(1, bottom);
    c.fillStyle = g;
    c.fillRect(0, 0, width, h);
  };
  const BOX = ['#c0392b', '#1f6fb2', '#d68910', '#117a65', '#7d3c98', '#5b6770'];
  const container = (x, y, w, h, fill) => {
    rect(x, y, w, h, fill);
    c.fillStyle = 'rgba(0,0,0,.18)';
    for (let i = 1; i < 5; i++) c.fillRect(x + (w * i) / 5 - 1, y + 3, 2, h - 6);
  };
  // A flat wagon with an optional container, seen from the side; (x, y) is the deck's left end.
  const wagon = (x, y, len, load) => {
    rect(x, y, len, 6, '#34495e');
    circle(x + 10, y + 10, 5, '#1c2833');
    circle(x + 22, y + 10, 5, '#1c2833');
    circle(x + len - 22, y + 10, 5, '#1c2833');
    circle(x + len - 10, y + 10, 5, '#1c2833');
    if (load) container(x + 2, y - 24, len - 4, 24, load);
  };
  // A diesel locomotive facing left (westward, the way the film's trains run).
  const loco = (x, y, len = 64) => {
    c.beginPath();
    c.moveTo(x + 12, y - 30);
    c.lineTo(x + len, y - 30);
    c.lineTo(x + len, y);
    c.lineTo(x, y);
    c.lineTo(x, y - 16);
    c.closePath();
    c.fillStyle = '#c0392b';
    c.fill();
    rect(x + 2, y - 10, len - 2, 4, '#f4d03f');
    rect(x + 8, y - 26, 14, 10, '#d6eaf8');
    rect(x, y, len, 6, '#2c3e50');
    for (const dx of [10, 22, len - 22, len - 10]) circle(x + dx, y + 10, 5, '#1c2833');
  };
  // A whole train facing left: locomotive at x, then n wagons.
  const train = (x, y, n, offset = 0) => {
    loco(x, y);
    for (let i = 0; i < n; i++) wagon(x + 68 + i * 62, y, 58, BOX[(i + offset) % BOX.length]);
  };
  const track = (y, color = '#5d6d7e') => {
    rect(0, y + 14, width, 4, color);
    c.fillStyle = '#6e4b2a';
    for (let x = 0; x < width; x += 18) c.fillRect(x, y + 17, 10, 4);
  };
  // A person drawn flat: (x, y) is the feet; helmet or cap colour, clothing colour.
  const person = (x, y, s, top, hat) => {
    rect(x - 5 * s, y - 14 * s, 4 * s, 14 * s, '#2c3e50');
    rect(x + 1 * s, y - 14 * s, 4 * s, 14 * s, '#2c3e50');
    rect(x - 7 * s, y - 32 * s, 14 * s, 19 * s, top);
    circle(x, y - 38 * s, 6 * s, '#f0c7a0');
    c.beginPath();
    c.arc(x, y - 40 * s, 6.5 * s, Math.PI, 0);
    c.fillStyle = hat;
    c.fill();
  };
  // A rail-mounted gantry crane: legs at x1 and x2, beam at y, trolley at tx with the hook's load.
  const gantry = (x1, x2, ground, top, tx, hookY, load) => {
    rect(x1 - 6, top, 12, ground - top, '#e0a526');
    rect(x2 - 6, top, 12, ground - top, '#e0a526');
    rect(x1 - 24, top - 16, x2 - x1 + 48, 18, '#e0a526');
    c.strokeStyle = '#b07d10';
    c.lineWidth = 2;
    c.beginPath();
    for (let x = x1 - 20; x < x2 + 20; x += 20) {
      c.moveTo(x, top - 14);
      c.lineTo(x + 10, top);
    }
    c.stroke();
    rect(tx - 16, top + 2, 32, 12, '#444');
    line(tx - 6, top + 14, tx - 6, hookY, '#333', 2);
    line(tx + 6, top + 14, tx + 6, hookY, '#333', 2);
    rect(tx - 30, hookY, 60, 4, '#333');
    if (load) container(tx - 29, hookY + 4, 58, 24, load);
  };
  const hills = (pts, fill) => poly([0, height, ...pts, width, height], fill);
  const chapterCard = (t, label) => {
    const a = span(t, 0.3, 1.0) * (1 - span(t, 3.6, 4.3));
    if (a <= 0) return;
    c.save();
    c.globalAlpha = a * 0.85;
    rect(24, 22, 250, 44, '#0b2540');
    c.globalAlpha = a;
    rect(24, 22, 6, 44, '#f4c542');
    c.restore();
    text(label, 42, 45, 22, '#ffffff', 'left', 700, a);
  };

  // ----- scenes: each draws its local time t (seconds) of d -----
  const draw = {
    opening(t) {
      rect(0, 0, width, height, '#0f2740');
      // a golden line draws itself from the inland end (right) towards Europe (left)
      const k = span(t, 0.3, 3.8);
      // below the title, clear of the subtitles at the foot of the frame
      const at = (u) => [lerp(590, 50, u), 272 - Math.sin(u * Math.PI) * 52 + u * 10];
      c.save();
      c.setLineDash([14, 10]);
      c.strokeStyle = '#f4c542';
      c.lineWidth = 5;
      c.beginPath();
      for (let i = 0; i <= 100 * k; i++) {
        const [x, y] = at(i / 100);
        if (i === 0) c.moveTo(x, y);
        else c.lineTo(x, y);
      }
      c.stroke();
      c.restore();
      for (const u of [0, 0.35, 0.7, 1]) if (k >= u) circle(...at(u), 8, '#f4c542');
      text('通达欧亚', width / 2, 120, 60, '#ffffff', 'center', 700, span(t, 2.4, 3.8));
      text('云川陆港国际物流集团', width / 2, 178, 22, '#cfe0f0', 'center', 400, span(t, 3.4, 4.6));
    },
    yard(t, d) {
      const dawn = span(t, 0, d);
      sky(mix('#2b3a67', '#8fc1e3', dawn), mix('#e98b5a', '#f8e1c4', dawn));
      circle(560, lerp(250, 120, dawn), 26, mix('#f6b26b', '#fdebc8', dawn));
      // distant container stacks and a second crane
      for (let i = 0; i < 9; i++) {
        const h = 26 + ((i * 37) % 3) * 22;
        rect(i * 72, 230 - h, 68, h, mix('#3b4a6b', '#8c9bab', dawn));
      }
      rect(0, 230, width, 130, mix('#4a4f5c', '#9aa3a8', dawn));
      // floodlight masts, switched off as the day comes
      for (const x of [40, 600]) {
        rect(x - 2, 120, 4, 110, '#5d6d7e');
        rect(x - 12, 112, 24, 10, '#5d6d7e');
        if (dawn < 0.55) {
          c.save();
          c.globalAlpha = 0.5 * (1 - dawn / 0.55);
          poly([x - 12, 122, x + 12, 122, x + 60, 300, x - 60, 300], '#fff3c4');
          c.restore();
        }
      }
      track(262);
      // two lifts from the stack at the right: its top box to wagon slot 1, then the one below to
      // slot 2 (slots 0 and 3 were loaded before the film starts)
      const slots = [140, 206, 272, 338];
      const cycle = 6;
      const tt = clamp(t - 1, 0, 2 * cycle);
      const k = Math.min(1, Math.floor(tt / cycle));
      const u = (tt - k * cycle) / cycle;
      const stack = 513;
      const pick = k === 0 ? 216 : 240;
      const to = slots[1 + k] + 29;
      const box = k === 0 ? BOX[0] : BOX[3];
      let [tx, hy, carrying] = [stack, 100, false];
      if (t >= 1) {
        if (u < 0.15) [tx, hy] = [stack, lerp(100, pick, u / 0.15)];
        else if (u < 0.3) [tx, hy, carrying] = [stack, lerp(pick, 100, (u - 0.15) / 0.15), true];
        else if (u < 0.6) [tx, hy, carrying] = [lerp(stack, to, ease((u - 0.3) / 0.3)), 100, true];
        else if (u < 0.75) [tx, hy, carrying] = [to, lerp(100, 234, (u - 0.6) / 0.15), true];
        else [tx, hy] = [lerp(to, stack, ease((u - 0.75) / 0.25)), lerp(234, 100, (u - 0.75) / 0.25)];
      }
      if (k === 0 && (t < 1 || u < 0.15)) container(484, 220, 58, 24, BOX[0]);
      if (!(k === 1 && u >= 0.15)) container(484, 244, 58, 24, BOX[3]);
      const loads = [BOX[2], k >= 1 || u >= 0.75 ? BOX[0] : null, k === 1 && u >= 0.75 ? BOX[3] : null, BOX[1]];
      slots.forEach((x, i) => wagon(x, 262, 58, loads[i]));
      wagon(74, 262, 58, BOX[4]);
      wagon(404, 262, 58, BOX[5]);
      gantry(118, 570, 290, 84, tx, hy, carrying ? box : null);
      // a signaller by the track
      person(606, 300, 1, '#e67e22', '#f4d03f');
      rect(0, 300, width, 60, mix('#3e434d', '#7d8a91', dawn));
    },
    customs(t, d) {
      sky('#a9d6f2', '#eef7fc');
      rect(0, 250, width, 110, '#9aa5ab');
      // the inspection hall behind: low building with a canopy
      rect(60, 150, 520, 100, '#e8ecef');
      rect(40, 140, 560, 14, '#1f5f9e');
      for (let i = 0; i < 8; i++) rect(80 + i * 64, 176, 40, 26, '#c9dcea');
      // the scanning arch the truck drives through
      const x = lerp(-190, 700, span(t, 0.2, d - 0.4));
      // the truck with its container, facing right (to the gate's exit)
      rect(x, 218, 150, 10, '#34495e');
      container(x + 4, 186, 142, 32, '#d68910');
      rect(x + 154, 190, 40, 38, '#ecf0f1');
      rect(x + 170, 196, 18, 14, '#34495e');
      for (const dx of [20, 44, 124, 178]) circle(x + dx, 232, 9, '#1c2833');
      // the beam: a pale band inside the arch while the container is in it
      const inArch = x + 146 > 306 && x < 402;
      if (inArch) {
        c.save();
        c.globalAlpha = 0.35 + 0.2 * Math.sin(t * 20);
        rect(306, 128, 96, 120, '#7fdbff');
        c.restore();
      }
      rect(290, 120, 16, 150, '#f4f6f7');
      rect(402, 120, 16, 150, '#f4f6f7');
      rect(282, 108, 144, 20, '#2e86c1');
      // the officer with a tablet, and the monitor showing what the scan found
      person(470, 300, 1.25, '#1b3a5c', '#1b3a5c');
      rect(480, 250, 16, 12, '#2c3e50');
      rect(520, 200, 92, 62, '#2c3e50');
      rect(526, 206, 80, 50, '#0e2a47');
      const seen = span(t, 3.2, 5.2);
      if (seen > 0) {
        c.save();
        c.globalAlpha = seen;
        c.strokeStyle = '#7fdbff';
        c.lineWidth = 2;
        c.strokeRect(532, 214, 68, 32);
        for (let i = 0; i < 4; i++) c.strokeRect(536 + i * 16, 222, 12, 20);
        c.restore();
      }
      rect(564, 262, 6, 38, '#2c3e50');
      // released: the light turns green
      const ok = t > 5.6;
      circle(354, 100, 9, ok ? '#2ecc71' : '#e74c3c');
      if (ok) {
        c.save();
        c.strokeStyle = '#2ecc71';
        c.lineWidth = 5;
        c.beginPath();
        c.moveTo(548, 230);
        c.lineTo(562, 244);
        c.lineTo(586, 216);
        c.globalAlpha = span(t, 5.6, 6.2);
        c.stroke();
        c.restore();
      }
    },
    departure(t, d) {
      sky('#8fc1e3', '#f3efe6');
      for (let i = 0; i < 9; i++) rect(i * 72, 190 - ((i * 29) % 3) * 18, 68, 60 + ((i * 29) % 3) * 18, '#a7b3bd');
      rect(0, 250, width, 110, '#a4acb0');
      gantry(380, 620, 250, 70, 500, 110, null);
      track(262);
      // the signal: red, then green
      rect(60, 180, 6, 96, '#34495e');
      rect(50, 160, 26, 44, '#1c2833');
      circle(63, 172, 7, t > 1.2 ? '#333' : '#e74c3c');
      circle(63, 192, 7, t > 1.2 ? '#2ecc71' : '#333');
      const go = Math.max(0, t - 1.6);
      const x = 120 - 22 * go * go;
      train(x, 262, 12);
      rect(0, 300, width, 60, '#8c969b');
    },
    journey(t, d) {
      // the camera follows the train west: the land runs past to the right
      const grass = span(t, 6.4, 7.6);
      sky(mix('#7fb8e6', '#6fa8dc', grass), mix('#f6e7c8', '#e6f2fa', grass));
      const far = t * 14;
      const near = t * 60;
      // desert: mesas and dunes
      if (grass < 1) {
        c.save();
        c.globalAlpha = 1 - grass;
        circle(540, 70, 24, '#fff1c1');
        for (let i = -1; i < 5; i++) {
          const x = ((i * 190 + far) % 950) - 160;
          poly([x, 210, x + 30, 160, x + 110, 160, x + 140, 210], '#c98e5a');
        }
        for (let i = -1; i < 6; i++) {
          const x = ((i * 160 + near) % 960) - 160;
          c.beginPath();
          c.moveTo(x, 262);
          c.quadraticCurveTo(x + 80, 200, x + 180, 262);
          c.fillStyle = '#e4b976';
          c.fill();
        }
        rect(0, 240, width, 40, '#e4b976');
        rect(0, 276, width, 84, '#d9a55b');
        c.restore();
      }
      if (grass > 0) {
        c.save();
        c.globalAlpha = grass;
        for (let i = -1; i < 5; i++) {
          const x = ((i * 210 + far) % 1050) - 200;
          poly([x, 220, x + 90, 130, x + 120, 150, x + 200, 220], '#8aa1b8');
          poly([x + 72, 148, x + 90, 130, x + 108, 146, x + 96, 152], '#ffffff');
        }
        for (let i = -1; i < 4; i++) {
          const x = ((i * 260 + far * 2) % 1040) - 200;
          circle(x + 60, 60, 16, '#ffffff');
          circle(x + 84, 54, 20, '#ffffff');
          circle(x + 108, 62, 14, '#ffffff');
        }
        for (let i = -1; i < 6; i++) {
          const x = ((i * 180 + near) % 1080) - 180;
          c.beginPath();
          c.moveTo(x, 262);
          c.quadraticCurveTo(x + 100, 190, x + 220, 262);
          c.fillStyle = '#7fb56a';
          c.fill();
        }
        rect(0, 240, width, 40, '#7fb56a');
        rect(0, 276, width, 84, '#5f9a4f');
        for (let i = 0; i < 12; i++) {
          const x = ((i * 83 + near * 1.4) % 760) - 60;
          c.beginPath();
          c.ellipse(x, 320 + (i % 3) * 10, 7, 5, 0, 0, Math.PI * 2);
          c.fillStyle = '#f8f9f9';
          c.fill();
        }
        c.restore();
      }
      // the track runs past fast; the train stays in frame, gently rocking
      rect(0, 276, width, 4, '#5d6d7e');
      c.fillStyle = '#6e4b2a';
      const sleeper = (t * 240) % 18;
      for (let x = -18; x < width; x += 18) c.fillRect(x + sleeper, 279, 10, 4);
      train(90, 260 + Math.sin(t * 9) * 0.6, 9, 2);
    },
    gauge(t, d) {
      // seen from above at night: two tracks of different gauge side by side, one crane between
      rect(0, 0, width, height, '#2b3440');
      for (const [x, y] of [
        [120, 60],
        [520, 60],
        [320, 300],
      ]) {
        const g = c.createRadialGradient(x, y, 10, x, y, 220);
        g.addColorStop(0, 'rgba(255,236,170,.30)');
        g.addColorStop(1, 'rgba(255,236,170,0)');
        c.fillStyle = g;
        c.fillRect(0, 0, width, height);
      }
      const rails = (y, gap) => {
        c.fillStyle = '#5b4636';
        for (let x = 0; x < width; x += 14) c.fillRect(x, y - gap / 2 - 7, 6, gap + 14);
        rect(0, y - gap / 2 - 2, width, 3, '#c9ced3');
        rect(0, y + gap / 2 - 1, width, 3, '#c9ced3');
      };
      // standard gauge above (narrower), broad gauge below (wider)
      rails(110, 20);
      rails(250, 36);
      const slots = [90, 190, 290, 390, 490];
      const top = (x, y, w, h, fill) => {
        rect(x, y, w, h, fill);
        c.fillStyle = 'rgba(255,255,255,.18)';
        c.fillRect(x + 3, y + 3, w - 6, 4);
      };
      // wagons (top view) on both tracks
      for (const x of slots) {
        rect(x - 44, 96, 88, 28, '#3d4852');
        rect(x - 44, 234, 88, 32, '#3d4852');
      }
      // three boxes change trains, one every 3.2 s: the bridge rolls to the wagon (its trolley going
      // back up), picks the box from the narrow-gauge wagon and sets it on the broad-gauge one below
      const per = 3.2;
      const end = 0.6 + 3 * per;
      const done = Math.floor(clamp(t - 0.6, 0, 3 * per - 0.001) / per);
      const u = clamp((t - 0.6 - done * per) / per);
      const moving = t >= 0.6 && t < end;
      const where = (i) => {
        if (t >= end) return i < 3 ? 'below' : 'above';
        if (!moving || i > done) return 'above';
        if (i < done) return 'below';
        return u < 0.25 ? 'above' : u < 0.8 ? 'hook' : 'below';
      };
      let bx = 40;
      let ty = 110;
      if (moving) {
        const prev = done === 0 ? 40 : slots[done - 1];
        if (u < 0.2) [bx, ty] = [lerp(prev, slots[done], ease(u / 0.2)), lerp(done === 0 ? 110 : 250, 110, ease(u / 0.2))];
        else [bx, ty] = [slots[done], u < 0.3 ? 110 : u < 0.75 ? lerp(110, 250, ease((u - 0.3) / 0.45)) : 250];
      } else if (t >= end) [bx, ty] = [slots[2], 250];
      slots.forEach((x, i) => {
        const col = BOX[(i + 1) % BOX.length];
        const at = where(i);
        if (at === 'above') top(x - 42, 98, 84, 24, col);
        if (at === 'below') top(x - 42, 237, 84, 26, col);
        if (at === 'hook') top(bx - 42, ty - 12, 84, 24, col);
      });
      rect(bx - 8, 40, 16, 280, '#e0a526');
      rect(bx - 22, 30, 44, 12, '#b07d10');
      rect(bx - 22, 318, 44, 12, '#b07d10');
      rect(bx - 14, ty - 10, 28, 20, '#444');
    },
    europe(t, d) {
      if (t < 6.5) {
        // arrival: a river city in the morning, the train comes in from the east and stops
        sky('#9cc9e8', '#f4efe4');
        const roofs = [
          [20, 70, 120],
          [90, 60, 150],
          [150, 80, 110],
          [230, 56, 160],
          [286, 70, 130],
          [356, 64, 140],
          [420, 90, 120],
          [510, 60, 150],
          [570, 70, 130],
        ];
        for (const [x, w, h] of roofs) {
          rect(x, 250 - h, w, h, '#b5654b');
          poly([x - 4, 250 - h, x + w / 2, 250 - h - 30, x + w + 4, 250 - h], '#6d4c41');
          for (let r = 0; r < Math.floor(h / 30); r++) for (let k = 0; k < Math.floor(w / 20); k++) rect(x + 6 + k * 20, 260 - h + r * 30, 8, 12, '#f5e6c8');
        }
        // the spire
        rect(462, 60, 26, 190, '#8d6e63');
        poly([458, 60, 475, 4, 492, 60], '#4e6e58');
        rect(0, 248, width, 14, '#8c969b');
        track(262);
        const x = lerp(700, 120, ease(t / 5));
        train(x, 262, 10, 4);
        rect(0, 300, width, 60, '#5d8fb3');
        c.strokeStyle = 'rgba(255,255,255,.5)';
        c.lineWidth = 2;
        for (let i = 0; i < 6; i++) {
          const y = 316 + i * 8;
          const o = (t * 20 + i * 60) % 120;
          c.beginPath();
          c.moveTo(o + i * 90, y);
          c.lineTo(o + i * 90 + 40, y);
          c.stroke();
        }
      } else {
        // the overseas warehouse: dock doors, a forklift, a van leaving with the day's orders
        const w = t - 6.5;
        sky('#b7dcf2', '#eef6fb');
        rect(0, 260, width, 100, '#9aa3a8');
        rect(40, 120, 470, 140, '#e5e8eb');
        rect(30, 110, 490, 14, '#1f5f9e');
        for (let i = 0; i < 4; i++) {
          rect(70 + i * 110, 180, 70, 80, '#5d6d7e');
          rect(70 + i * 110, 180, 70, 8, '#f4d03f');
        }
        // a truck backed onto door 1, a forklift carrying a pallet between doors
        container(60, 196, 90, 40, '#117a65');
        rect(64, 236, 82, 8, '#34495e');
        const fx = lerp(170, 300, (Math.sin(w * 1.4) + 1) / 2);
        rect(fx, 236, 34, 20, '#f39c12');
        rect(fx + 34, 214, 4, 42, '#555');
        rect(fx + 38, 232, 20, 14, '#c8a46e');
        circle(fx + 8, 258, 6, '#2c3e50');
        circle(fx + 28, 258, 6, '#2c3e50');
        // the van drives off to the right
        const vx = lerp(380, 700, span(w, 1.5, 6));
        rect(vx, 228, 84, 36, '#ffffff');
        poly([vx + 84, 232, vx + 104, 240, vx + 108, 264, vx + 84, 264], '#ffffff');
        rect(vx + 88, 240, 14, 10, '#34495e');
        rect(vx, 244, 84, 6, '#c0392b');
        circle(vx + 18, 266, 8, '#1c2833');
        circle(vx + 88, 266, 8, '#1c2833');
        for (let i = 0; i < 5; i++) circle(560 + i * 18, 150 - (i % 2) * 14, 18, '#6aa364');
        rect(0, 300, width, 60, '#8c969b');
      }
    },
    map(t, d) {
      rect(0, 0, width, height, '#0f2740');
      // Europe and Asia, loosely: the same silhouette as the site's partner map
      c.save();
      c.scale(width / 720, height / 400);
      c.fillStyle = '#1d4466';
      c.fill(
        new Path2D(
          'M30 262C34 236 52 214 78 206C86 186 104 170 126 160C130 140 138 118 150 108C152 80 164 52 184 40C200 34 214 46 216 66C214 84 224 98 244 96C280 70 330 58 380 46C460 30 560 30 640 48C680 56 706 66 720 74V400H560C540 372 500 356 470 360C430 366 400 350 380 332C356 318 330 306 306 300C290 296 270 300 256 290C244 282 232 294 222 306C214 316 204 306 206 292C208 276 196 266 182 270C160 276 146 270 130 274C110 280 96 296 74 294C50 292 30 284 30 262Z',
        ),
      );
      c.restore();
      const home = [543, 222];
      const cities = [
        ['阿拉木图', 418, 183, 0, -22],
        ['塔什干', 372, 224, 0, 24],
        ['布达佩斯', 183, 174, -6, 24],
        ['', 150, 142],
        ['罗兹', 190, 116, 30, 14],
        ['', 104, 128],
        ['汉堡', 132, 98, -6, -22],
      ];
      cities.forEach(([name, x, y, lx, ly], i) => {
        const k = span(t, 0.4 + i * 0.7, 1.2 + i * 0.7);
        if (k <= 0) return;
        const mx = (x + home[0]) / 2;
        // the arcs to Europe bow higher, so they pass above the Central Asian cities and their names
        const my = Math.min(y, home[1]) - (home[0] - x) * (x < 300 ? 0.36 : 0.2);
        c.save();
        c.strokeStyle = '#f4c542';
        c.lineWidth = 3;
        c.beginPath();
        for (let s = 0; s <= 40 * k; s++) {
          const u = s / 40;
          const px = (1 - u) * (1 - u) * home[0] + 2 * (1 - u) * u * mx + u * u * x;
          const py = (1 - u) * (1 - u) * home[1] + 2 * (1 - u) * u * my + u * u * y;
          if (s === 0) c.moveTo(px, py);
          else c.lineTo(px, py);
        }
        c.stroke();
        c.restore();
        if (k >= 1) {
          circle(x, y, 6, '#f4c542');
          if (name) {
            c.save();
            c.globalAlpha = span(t, 1.2 + i * 0.7, 1.7 + i * 0.7);
            c.font = `700 18px ${FONT}`;
            c.textAlign = 'center';
            c.textBaseline = 'middle';
            c.lineWidth = 5;
            c.strokeStyle = '#0f2740';
            c.strokeText(name, x + lx, y + ly);
            c.fillStyle = '#ffffff';
            c.fillText(name, x + lx, y + ly);
            c.restore();
          }
        }
      });
      circle(home[0], home[1], 12, '#f4c542');
      circle(home[0], home[1], 5, '#0f2740');
      text('云川', home[0], home[1] + 28, 22, '#f4c542', 'center', 700);
    },
    closing(t) {
      rect(0, 0, width, height, '#0f2740');
      c.save();
      c.globalAlpha = 0.35;
      c.setLineDash([14, 10]);
      c.strokeStyle = '#f4c542';
      c.lineWidth = 4;
      c.beginPath();
      c.moveTo(40, 250);
      c.quadraticCurveTo(320, 160, 600, 250);
      c.stroke();
      c.restore();
      text('通达天下　行稳致远', width / 2, 130, 40, '#ffffff', 'center', 700, span(t, 0.2, 1.2));
      text('云川陆港国际物流集团', width / 2, 186, 24, '#cfe0f0', 'center', 400, span(t, 0.8, 1.8));
    },
  };

  const frame = (time) => {
    const s = scenes.find((x) => time < x.to) ?? scenes[scenes.length - 1];
    const t = time - s.from;
    const d = s.to - s.from;
    c.save();
    draw[s.id](t, d);
    c.restore();
    if (s.chapter) chapterCard(t, s.chapter);
    // a short dip to black between scenes, and a fade out at the end
    const dip = Math.max(1 - t / 0.35, 1 - (d - t) / 0.35, 0);
    if (dip > 0) {
      c.save();
      c.globalAlpha = clamp(dip);
      rect(0, 0, width, height, '#000');
      c.restore();
    }
  };

  await document.fonts.load(`700 20px ${FONT}`, '通达欧亚');
  await document.fonts.load(`400 20px ${FONT}`, '云川陆港国际物流集团');

  if (stills) {
    return stills.map((time) => {
      frame(time);
      return canvas.toDataURL('image/png');
    });
  }

  const stream = canvas.captureStream(fps);
  const type = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8'].find((m) => MediaRecorder.isTypeSupported(m));
  const recorder = new MediaRecorder(stream, { mimeType: type, videoBitsPerSecond: bits });
  const chunks = [];
  recorder.ondataavailable = (e) => e.data.size && chunks.push(e.data);
  frame(0);
  const finished = new Promise((resolve) => (recorder.onstop = resolve));
  await new Promise((resolve) => {
    recorder.onstart = resolve;
    recorder.start(1000);
  });
  const t0 = performance.now();
  let drawn = 0;
  await new Promise((resolve) => {
    const tick = () => {
      const time = (performance.now() - t0) / 1000;
      frame(Math.min(time, duration - 0.001));
      drawn++;
      if (time >= duration) resolve();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  recorder.stop();
  await finished;
  const blob = new Blob(chunks, { type: 'video/webm' });
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { type, drawn, seconds: (performance.now() - t0) / 1000, webm: btoa(bin) };
}

// ---------------------------------------------------------------------------------------------
// WebM (EBML) duration: MediaRecorder leaves it out. The Segment's Info gets a Duration element.
// ---------------------------------------------------------------------------------------------
function readVint(buf, pos, keepMarker) {
  const first = buf[pos];
  let len = 1;
  while (len <= 8 && !(first & (0x80 >> (len - 1)))) len++;
  if (len > 8) throw new Error(`bad EBML length at ${pos}`);
  let value = keepMarker ? first : first & (0xff >> len);
  let unknown = value === (0xff >> len);
  for (let i = 1; i < len; i++) {
    value = value * 256 + buf[pos + i];
    if (buf[pos + i] !== 0xff) unknown = false;
  }
  return { value, len, unknown: !keepMarker && unknown };
}

function sizeVint(n) {
  for (let len = 1; len <= 8; len++) {
    if (n < 2 ** (7 * len) - 1) {
      const out = Buffer.alloc(len);
      let v = n;
      for (let i = len - 1; i >= 0; i--) {
        out[i] = v % 256;
        v = Math.floor(v / 256);
      }
      out[0] |= 0x80 >> (len - 1);
      return out;
    }
  }
  throw new Error('EBML size too large');
}

const ID = { segment: 0x18538067, info: 0x1549a966, seekHead: 0x114d9b74, duration: 0x4489, timecodeScale: 0x2ad7b1, cluster: 0x1f43b675 };

function addDuration(buf, seconds) {
  let pos = 0;
  const header = (at) => {
    const id = readVint(buf, at, true);
    const size = readVint(buf, at + id.len);
    return { id: id.value, size: size.value, unknown: size.unknown, start: at + id.len + size.len, headerLen: id.len + size.len };
  };
  const ebml = header(pos);
  pos = ebml.start + ebml.size;
  const segment = header(pos);
  if (segment.id !== ID.segment) throw new Error('no Segment after the EBML header');
  for (let at = segment.start; at < buf.length; ) {
    const el = header(at);
    if (el.id === ID.seekHead) throw new Error('a SeekHead would need its offsets moved: not expected from MediaRecorder');
    if (el.id === ID.cluster) break;
    if (el.id === ID.info) {
      let scale = 1_000_000;
      for (let p = el.start; p < el.start + el.size; ) {
        const child = header(p);
        if (child.id === ID.duration) return buf; // already there
        if (child.id === ID.timecodeScale) scale = buf.readUIntBE(child.start, child.size);
        p = child.start + child.size;
      }
      const value = Buffer.alloc(8);
      value.writeDoubleBE((seconds * 1e9) / scale);
      const duration = Buffer.concat([Buffer.from([0x44, 0x89, 0x88]), value]);
      const body = Buffer.concat([buf.subarray(el.start, el.start + el.size), duration]);
      const info = Buffer.concat([Buffer.from([0x15, 0x49, 0xa9, 0x66]), sizeVint(body.length), body]);
      // The Segment's size is "unknown" in a recording, so nothing above needs correcting;
      // a known size grows by the bytes added.
      let head = buf.subarray(0, at);
      if (!segment.unknown) {
        const grown = Buffer.from(head);
        const sizeAt = segment.start - (segment.headerLen - 4);
        const old = readVint(grown, sizeAt);
        const bigger = sizeVint(segment.size + info.length - (el.headerLen + el.size));
        if (bigger.length !== old.len) throw new Error('the Segment size would change length');
        bigger.copy(grown, sizeAt);
        head = grown;
      }
      return Buffer.concat([head, info, buf.subarray(el.start + el.size)]);
    }
    at = el.start + el.size;
  }
  throw new Error('no Info element before the first Cluster');
}

// ---------------------------------------------------------------------------------------------

const LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};

async function main() {
  const stillsArg = process.argv.indexOf('--stills');
  const browser = await chromium.launch(LAUNCH);
  try {
    const page = await browser.newPage({ viewport: { width: WIDTH + 40, height: HEIGHT + 40 } });
    await page.setContent('<!doctype html><meta charset="utf-8"><body style="margin:0;background:#000">');
    const opts = { width: WIDTH, height: HEIGHT, fps: FPS, bits: BITS_PER_SECOND, scenes: SCENES, duration: DURATION };
    if (process.argv.includes('--verify')) return await verify(browser);
    if (stillsArg > 0) {
      const times = process.argv[stillsArg + 1].split(',').map(Number);
      const pngs = await page.evaluate(film, { ...opts, stills: times });
      pngs.forEach((url, i) => {
        const file = `/tmp/promo-${String(times[i]).replace('.', '_')}s.png`;
        writeFileSync(file, Buffer.from(url.split(',')[1], 'base64'));
        console.log(file);
      });
      return;
    }
    console.log(`recording ${DURATION} s in real time…`);
    const result = await page.evaluate(film, opts);
    const fps = result.drawn / result.seconds;
    console.log(`${result.type}: ${result.drawn} frames drawn in ${result.seconds.toFixed(1)} s (${fps.toFixed(1)} a second)`);
    if (fps < FPS * 0.6) console.warn('warning: the machine was busy and the film is choppy; record it again when it is idle');
    const webm = addDuration(Buffer.from(result.webm, 'base64'), DURATION);
    if (webm.length > MAX_BYTES) throw new Error(`${webm.length} bytes is over the ${MAX_BYTES}-byte budget: lower BITS_PER_SECOND`);
    mkdirSync(OUT_DIR, { recursive: true });
    writeFileSync(WEBM, webm);
    toMp4();
    writeFileSync(VTT, webvtt());
    console.log(`${MP4}: ${statSync(MP4).size} bytes`);
    console.log(`${VTT}: ${NARRATION.length} cues`);
    await verify(browser);
  } finally {
    await browser.close();
  }
}

/** The recording as the portal serves it (see the top of this file). */
function toMp4() {
  try {
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
  } catch {
    execFileSync('apt-get', ['install', '-y', '-q', 'ffmpeg'], { stdio: 'inherit' });
  }
  const video = ['-vf', 'scale=in_range=full:out_range=limited,format=yuv420p', '-color_range', 'tv', '-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709'];
  const codec = ['-c:v', 'libx264', '-preset', 'slow', '-crf', '24', '-r', '30', '-profile:v', 'main', '-level', '3.1', '-movflags', '+faststart', '-an'];
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', WEBM, ...video, ...codec, MP4], { stdio: 'inherit' });
  if (statSync(MP4).size > MAX_BYTES) throw new Error(`${MP4} is over the ${MAX_BYTES}-byte budget: raise -crf`);
}

/**
 * Plays the written file as the portal would: a <video> with the subtitles as its <track>, served
 * over HTTP with byte ranges (the gateway streams a video's Range requests from the CMS), then
 * seeks near the end: a recording has no Cues, and the player must still find its way there.
 */
async function verify(browser) {
  const files = { '/f.mp4': ['video/mp4', readFileSync(MP4)], '/f.vtt': ['text/vtt; charset=utf-8', readFileSync(VTT)] };
  const page0 = '<!doctype html><video muted preload="auto" src="/f.mp4"><track kind="captions" srclang="zh-CN" src="/f.vtt" default></video>';
  const server = createServer((req, res) => {
    if (req.url === '/') return res.end(page0);
    const file = files[req.url];
    if (!file) return res.writeHead(404).end();
    const [type, body] = file;
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    if (!range) return res.writeHead(200, { 'Content-Type': type, 'Content-Length': body.length, 'Accept-Ranges': 'bytes' }).end(body);
    const start = range[1] ? Number(range[1]) : body.length - Number(range[2]);
    const end = range[1] && range[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1;
    res.writeHead(206, { 'Content-Type': type, 'Content-Length': end - start + 1, 'Content-Range': `bytes ${start}-${end}/${body.length}`, 'Accept-Ranges': 'bytes' });
    return res.end(body.subarray(start, end + 1));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    const report = await page.evaluate(async (seekTo) => {
      const v = document.querySelector('video');
      if (v.readyState < 1) await new Promise((r, j) => ((v.onloadedmetadata = r), (v.onerror = () => j(new Error('the video does not load')))));
      const header = v.duration;
      await v.play();
      await new Promise((r) => setTimeout(r, 1500));
      const played = v.currentTime;
      v.pause();
      v.currentTime = seekTo;
      await new Promise((r) => (v.onseeked = r));
      const track = v.textTracks[0];
      track.mode = 'hidden';
      for (let i = 0; i < 50 && !(track.cues && track.cues.length); i++) await new Promise((r) => setTimeout(r, 100));
      return { header, played, seekedTo: v.currentTime, size: [v.videoWidth, v.videoHeight], cues: track.cues ? track.cues.length : 0 };
    }, DURATION - 8);
    console.log(
      `played back: duration ${report.header} s from the header, ${report.played.toFixed(2)} s played, ` +
        `seek to ${report.seekedTo.toFixed(2)} s, ${report.size.join('×')}, ${report.cues} subtitle cues`,
    );
    if (!Number.isFinite(report.header) || Math.abs(report.header - DURATION) > 1) throw new Error('the file does not carry its duration');
    if (report.played < 0.5 || report.cues !== NARRATION.length) throw new Error('the film does not play with its subtitles');
    if (Math.abs(report.seekedTo - (DURATION - 8)) > 1) throw new Error('the player cannot seek in the file');
  } finally {
    server.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
