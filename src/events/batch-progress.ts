export interface BatchProgress {
  sent: number;
  failed: number;
  seconds: number;
  bytesDone: number;
  totalBytes: number | undefined;
}

const clock = (seconds: number): string => {
  const whole = Math.max(0, Math.round(seconds));
  const minutes = Math.floor(whole / 60);
  const hours = Math.floor(minutes / 60);
  const mm = String(minutes % 60).padStart(hours > 0 ? 2 : 1, '0');
  return `${hours > 0 ? `${hours}:` : ''}${mm}:${String(whole % 60).padStart(2, '0')}`;
};

export function progressText(progress: BatchProgress): string {
  const { sent, failed, seconds, bytesDone, totalBytes } = progress;
  const rate = Math.round(sent / Math.max(seconds, 0.001));
  const counts = `sent ${sent} · failed ${failed} · ${rate}/s`;
  if (totalBytes === undefined || totalBytes <= 0) return counts;
  const share = Math.min(bytesDone / totalBytes, 1);
  const left = share > 0 ? (seconds / share) * (1 - share) : undefined;
  return `${counts} · ${Math.floor(share * 100)}% of ${(totalBytes / 1e6).toFixed(1)} MB${left === undefined ? '' : ` · ${clock(left)} left`}`;
}
