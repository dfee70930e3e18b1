import type { Translation } from '../catalogue.ts'
import type { shell as en } from '../en/shell.ts'

export const shell: Translation<typeof en> = {
  'shell.loading': 'Cargando…',
  'shell.unreachable': 'No se puede contactar con el servidor. Comprueba la conexión y vuelve a intentarlo.',
  'shell.answered': 'El servidor respondió {status}.',
  'shell.signOut': 'Cerrar sesión',
  'shell.console': 'Consola',
  'shell.desk': 'Bandeja',
  'shell.language': 'Idioma',
  'shell.languageAuto': 'Como mi navegador ({name})',
  'shell.languageFailed': 'No se pudo guardar el idioma: {reason}',
  'shell.consoleBrand': 'Consola de Parley',
  'shell.nav.chatbots': 'Chatbots',
  'shell.nav.people': 'Personas',
  'shell.nav.keys': 'Claves de API',
  'shell.nav.operations': 'Operaciones',
  'shell.adminsOnly': 'La consola es para administradores. Tu rol es {role}: la {desk} tiene todo lo que necesitas.',
  'shell.deskLink': 'bandeja',
  'shell.role.admin': 'administrador',
  'shell.role.agent': 'agente',
}
