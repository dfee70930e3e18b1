import { createSignal } from 'solid-js'
import type { ListItem } from './data.ts'

const SOUND_KEY = 'parley.desk.sound'

/**
 * The desk's alerts: how many conversations wait for a person, in the tab title; a browser
 * notification when a new one starts waiting while the tab is hidden (permission is asked
 * only on a click); and an optional short beep.
 */
function createAlerts() {
  const [waitingCount, setWaitingCount] = createSignal(0)
  const [enabled, setEnabled] = createSignal(typeof Notification !== 'undefined' && Notification.permission === 'granted')
  const [sound, setSound] = createSignal(localStorage.getItem(SOUND_KEY) === 'on')
  let known: Set<string> | null = null
  let baseTitle = 'Parley desk'

  const showTitle = () => {
    const count = waitingCount()
    document.title = count > 0 ? `(${count}) ${baseTitle}` : baseTitle
  }

  return {
    waitingCount,
    enabled,
    sound,
    start() {
      showTitle()
    },
    stop() {
      document.title = baseTitle
      known = null
    },
    /** Asked from a click: browsers only show the permission prompt for a user gesture. */
    async enable() {
      if (typeof Notification === 'undefined') return
      const permission = Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission
      setEnabled(permission === 'granted')
    },
    toggleSound() {
      const next = !sound()
      setSound(next)
      localStorage.setItem(SOUND_KEY, next ? 'on' : 'off')
      if (next) beep()
    },
    setTitle(title: string) {
      baseTitle = title
      showTitle()
    },
    /** Waiting conversations as the server sees them now: new ones raise the alerts. */
    seeWaiting(waiting: ListItem[]) {
      setWaitingCount(waiting.length)
      showTitle()
      const ids = new Set(waiting.map((item) => item.id))
      const fresh = known ? waiting.filter((item) => !known!.has(item.id)) : []
      known = ids
      if (fresh.length === 0) return
      if (sound()) beep()
      if (document.visibilityState === 'hidden' && enabled()) {
        const first = fresh[0]!
        const note = new Notification('A visitor is waiting for a person', {
          body: first.last_message ?? `${fresh.length} new handoff${fresh.length > 1 ? 's' : ''}`,
          tag: `handoff-${first.id}`,
        })
        note.onclick = () => {
          window.focus()
          window.location.assign(`/app/c/${first.chatbot_id}/${first.id}`)
        }
      }
    },
  }
}

function beep(): void {
  try {
    const context = new AudioContext()
    const tone = context.createOscillator()
    const gain = context.createGain()
    tone.frequency.value = 880
    gain.gain.setValueAtTime(0.15, context.currentTime)
    gain.gain.exponentialRampToValueAtTime(0.001, context.currentTime + 0.3)
    tone.connect(gain).connect(context.destination)
    tone.start()
    tone.stop(context.currentTime + 0.3)
    tone.onended = () => void context.close()
  } catch {
    // No audio device: the title and notification still tell.
  }
}

export const alerts = createAlerts()
