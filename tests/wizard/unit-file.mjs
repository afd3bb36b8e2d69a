// The [Service] section of a generated systemd unit, read the simple way the tests need: {Key: [values…]},
// repeated keys in their order. Shared by the tests that start a server from a unit's own lines
// (e2e.test.mjs, stop-signals.test.mjs); the doctor's reader is not used, so the tests do not lean on it.
export function serviceSection(text) {
  const out = {};
  let section = null;
  for (const line of text.split('\n')) {
    const sec = /^\[(\w+)\]$/.exec(line);
    if (sec) { section = sec[1]; continue; }
    const m = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (m && section === 'Service') (out[m[1]] ||= []).push(m[2]);
  }
  return out;
}
