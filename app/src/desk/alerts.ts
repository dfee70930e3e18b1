import { createSignal } from 'solid-js'
import type { DeskConversation } from '../types.ts'
import { t } from '../i18n/language.ts'

const SOUND_KEY = 'parley.desk.sound'

/**
 * The desk's alerts: the number of unread conversations waiting for a person or assigned to
 * me, in the tab title; a browser notification when a visitor is handed over while the tab is
 * hidden (permission is asked only on a click, as browsers require); an optional short sound.
 */
function createAlerts() {
  const [waitingCount, setWaitingCount] = createSignal(0)
  const [unreadCount, setUnreadCount] = createSignal(0)
  const [enabled, setEnabled] = createSignal(typeof Notification !== 'undefined' && Notification.permission === 'granted')
  const [sound, setSound] = createSignal(localStorage.getItem(SOUND_KEY) === 'on')
  let counted = new Set<string>()

  const showTitle = () => {
    const count = unreadCount()
    document.title = count > 0 ? `(${count}) ${t('desk.tabTitle')}` : t('desk.tabTitle')
  }

  return {
    waitingCount,
    unreadCount,
    enabled,
    sound,
    start: showTitle,
    stop() {
      document.title = t('desk.tabTitle')
    },
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
    seeQueues(waiting: DeskConversation[], mine: DeskConversation[]) {
      setWaitingCount(waiting.length)
      counted = new Set([...waiting, ...mine].map((item) => item.id))
      setUnreadCount(new Set([...waiting, ...mine].filter((item) => item.unread).map((item) => item.id)).size)
      showTitle()
    },
    /** Whether the title's count includes this conversation (so its messages may change it). */
    counts: (conversationId: string) => counted.has(conversationId),
    /** A visitor was just handed over to a person (nobody has it yet). */
    handoff(conversationId: string) {
      if (sound()) beep()
      if (document.visibilityState !== 'hidden' || !enabled()) return
      const note = new Notification(t('desk.notifyTitle'), { body: t('desk.notifyBody'), tag: `handoff-${conversationId}` })
      note.onclick = () => {
        window.focus()
        window.location.assign(`/app/c/${encodeURIComponent(conversationId)}`)
        note.close()
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
    // No audio: the title and the notification still tell.
  }
}

export const alerts = createAlerts()
