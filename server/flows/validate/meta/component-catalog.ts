/**
 * Every WhatsApp Flow JSON component as data: its properties, their types, the version each
 * needs, and the limits the reference sets. Versions are numbers ("6.1" is 601).
 */
import type { JsonObject } from './json.ts'
import type { ActionName, ComponentSpec, InputSpec, PropSpec, Shape } from './spec.ts'

// Builders keep the table readable.
const str = (extra: Partial<PropSpec> = {}): PropSpec => ({ types: ['string'], ...extra })
const bool = (extra: Partial<PropSpec> = {}): PropSpec => ({ types: ['boolean'], ...extra })
const int = (extra: Partial<PropSpec> = {}): PropSpec => ({ types: ['integer'], ...extra })
const num = (extra: Partial<PropSpec> = {}): PropSpec => ({ types: ['number'], ...extra })
const strings = (extra: Partial<PropSpec> = {}): PropSpec => ({ types: ['array'], items: str(), ...extra })
const required = (spec: PropSpec, since = 0): PropSpec => ({ ...spec, required: since })
const action = (allowed: ActionName[], extra: Partial<PropSpec> = {}): PropSpec => ({
  types: ['object'],
  role: 'action',
  staticOnly: true,
  actions: { allowed },
  ...extra,
})
const shape = (name: string, props: Record<string, PropSpec>): Shape => ({ name, props })

const TYPE = required(str({ staticOnly: true }))
const NAME = required(str({ staticOnly: true }))
const VISIBLE = bool()
const ENABLED = bool()
const REQUIRED_FLAG = bool()
const SINCE_4 = 400
const SINCE_6 = 600

const FONT_WEIGHTS = ['bold', 'italic', 'bold_italic', 'normal']
const MEDIA_SIZES = ['regular', 'large']
const SCALE_TYPES = ['cover', 'contain']
const WEEK_DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']

/** One option of CheckboxGroup, RadioButtonsGroup, Dropdown and ChipsSelector. */
const OPTION = shape('a data-source option', {
  id: required(str()),
  title: required(str({ maxChars: 30 })),
  description: str({ maxChars: 300 }),
  metadata: str({ maxChars: 20 }),
  enabled: ENABLED,
  image: str({ since: 500 }),
  'alt-text': str({ since: 500 }),
  color: str({ since: 500 }),
  'on-select-action': action(['update_data', 'data_exchange'], { since: SINCE_6 }),
  'on-unselect-action': action(['update_data'], { since: SINCE_6 }),
})

const dataSource = (maxItems: number): PropSpec =>
  required({ types: ['array'], items: { types: ['object'], shape: OPTION }, minItems: 1, maxItems })

/** A value that is either one string, or one per end of a CalendarPicker range. */
const rangeOf = (spec: PropSpec): PropSpec => ({
  ...spec,
  types: [...spec.types, 'object'],
  shape: shape('a date range', { 'start-date': { ...spec, required: undefined }, 'end-date': { ...spec, required: undefined } }),
})

const TEXT_KINDS = (maxChars: number, extra: Record<string, PropSpec> = {}): Record<string, PropSpec> => ({
  type: TYPE,
  text: required(str({ maxChars })),
  visible: VISIBLE,
  ...extra,
})

const FORMATTED_TEXT = (maxChars: number): Record<string, PropSpec> =>
  TEXT_KINDS(maxChars, {
    text: required({ types: ['string', 'array'], items: str(), arraySince: 501, maxChars }),
    'font-weight': str({ enum: FONT_WEIGHTS }),
    strikethrough: bool(),
    markdown: bool({ since: 501, staticOnly: true }),
  })

const valueOf =
  (...types: ReturnType<InputSpec['valueTypes']>): InputSpec['valueTypes'] =>
  () =>
    types

const TEXT_INPUT: InputSpec = {
  valueTypes: (component: JsonObject) => (component['input-type'] === 'number' ? ['string', 'number'] : ['string']),
}
const CALENDAR_INPUT: InputSpec = {
  valueTypes: (component: JsonObject) => (component.mode === 'range' ? ['object'] : ['string']),
}

export const COMPONENTS: Readonly<Record<string, ComponentSpec>> = {
  TextHeading: { since: 0, shape: shape('TextHeading', TEXT_KINDS(80)) },
  TextSubheading: { since: 0, shape: shape('TextSubheading', TEXT_KINDS(80)) },
  TextBody: { since: 0, shape: shape('TextBody', FORMATTED_TEXT(4096)) },
  TextCaption: { since: 0, shape: shape('TextCaption', FORMATTED_TEXT(409)) },
  RichText: {
    since: 501,
    shape: shape('RichText', { type: TYPE, text: required({ types: ['string', 'array'], items: str() }), visible: VISIBLE }),
  },
  TextInput: {
    since: 0,
    input: TEXT_INPUT,
    minMax: [['min-chars', 'max-chars', 'number']],
    shape: shape('TextInput', {
      type: TYPE,
      name: NAME,
      label: required(str({ maxChars: 20 })),
      'input-type': str({ enum: ['text', 'number', 'email', 'password', 'passcode', 'phone'] }),
      pattern: str({ since: 602 }),
      required: REQUIRED_FLAG,
      'min-chars': int(),
      'max-chars': int(),
      'helper-text': str({ maxChars: 80 }),
      enabled: ENABLED,
      visible: VISIBLE,
      'init-value': { types: ['string', 'number'], since: SINCE_4 },
      'error-message': str({ since: SINCE_4, maxChars: 30 }),
      'label-variant': str({ since: 700, enum: ['large'] }),
    }),
  },
  TextArea: {
    since: 0,
    input: { valueTypes: valueOf('string') },
    shape: shape('TextArea', {
      type: TYPE,
      name: NAME,
      label: required(str({ maxChars: 20 })),
      required: REQUIRED_FLAG,
      'max-length': int(),
      'helper-text': str({ maxChars: 80 }),
      enabled: ENABLED,
      visible: VISIBLE,
      'init-value': str({ since: SINCE_4 }),
      'error-message': str({ since: SINCE_4 }),
      'label-variant': str({ since: 700, enum: ['large'] }),
    }),
  },
  CheckboxGroup: {
    since: 0,
    input: { valueTypes: valueOf('array') },
    minMax: [['min-selected-items', 'max-selected-items', 'number']],
    shape: shape('CheckboxGroup', {
      type: TYPE,
      name: NAME,
      'data-source': dataSource(20),
      label: required(str({ maxChars: 30 }), SINCE_4),
      description: str({ since: SINCE_4, maxChars: 300 }),
      'min-selected-items': int(),
      'max-selected-items': int(),
      required: REQUIRED_FLAG,
      enabled: ENABLED,
      visible: VISIBLE,
      'init-value': strings({ since: SINCE_4 }),
      'error-message': str({ since: SINCE_4 }),
      'media-size': str({ since: 500, enum: MEDIA_SIZES }),
      'on-select-action': action(['data_exchange', 'update_data']),
      'on-unselect-action': action(['update_data'], { since: SINCE_6 }),
    }),
  },
  RadioButtonsGroup: {
    since: 0,
    input: { valueTypes: valueOf('string') },
    shape: shape('RadioButtonsGroup', {
      type: TYPE,
      name: NAME,
      'data-source': dataSource(20),
      label: required(str({ maxChars: 30 }), SINCE_4),
      description: str({ since: SINCE_4, maxChars: 300 }),
      required: REQUIRED_FLAG,
      enabled: ENABLED,
      visible: VISIBLE,
      'init-value': str({ since: SINCE_4 }),
      'error-message': str({ since: SINCE_4 }),
      'media-size': str({ since: 500, enum: MEDIA_SIZES }),
      'on-select-action': action(['data_exchange', 'update_data']),
      'on-unselect-action': action(['update_data'], { since: SINCE_6 }),
    }),
  },
  Dropdown: {
    since: 0,
    input: { valueTypes: valueOf('string') },
    shape: shape('Dropdown', {
      type: TYPE,
      name: NAME,
      label: required(str({ maxChars: 20 })),
      'data-source': dataSource(200),
      required: REQUIRED_FLAG,
      enabled: ENABLED,
      visible: VISIBLE,
      'init-value': str({ since: SINCE_4 }),
      'error-message': str({ since: SINCE_4 }),
      'on-select-action': action(['data_exchange', 'update_data']),
      'on-unselect-action': action(['update_data'], { since: SINCE_6 }),
    }),
  },
  ChipsSelector: {
    since: 603,
    input: { valueTypes: valueOf('array') },
    minMax: [['min-selected-items', 'max-selected-items', 'number']],
    shape: shape('ChipsSelector', {
      type: TYPE,
      name: NAME,
      label: required(str()),
      'data-source': dataSource(20),
      description: str(),
      'min-selected-items': int(),
      'max-selected-items': int(),
      required: REQUIRED_FLAG,
      enabled: ENABLED,
      visible: VISIBLE,
      'init-value': strings(),
      'error-message': str(),
      'on-select-action': action(['data_exchange', 'update_data']),
      'on-unselect-action': action(['update_data'], { since: 701 }),
    }),
  },
  Footer: {
    since: 0,
    perScreen: 'Footer',
    shape: shape('Footer', {
      type: TYPE,
      label: required(str({ maxChars: 35 })),
      'left-caption': str({ maxChars: 15 }),
      'center-caption': str({ maxChars: 15 }),
      'right-caption': str({ maxChars: 15 }),
      enabled: ENABLED,
      'on-click-action': required(action(['complete', 'data_exchange', 'navigate'])),
    }),
  },
  OptIn: {
    since: 0,
    perScreen: 'OptIn',
    input: { valueTypes: valueOf('boolean') },
    shape: shape('OptIn', {
      type: TYPE,
      name: NAME,
      label: required(str({ maxChars: 120 })),
      required: REQUIRED_FLAG,
      visible: VISIBLE,
      'init-value': bool({ since: SINCE_4 }),
      'on-click-action': action(['data_exchange', 'navigate', 'open_url']),
      'on-select-action': action(['update_data'], { since: SINCE_6 }),
      'on-unselect-action': action(['update_data'], { since: SINCE_6 }),
    }),
  },
  EmbeddedLink: {
    since: 0,
    perScreen: 'EmbeddedLink',
    shape: shape('EmbeddedLink', {
      type: TYPE,
      text: required(str({ maxChars: 25, maxCharsIsWarning: true })),
      'on-click-action': required(action(['data_exchange', 'navigate', 'open_url'])),
      visible: VISIBLE,
    }),
  },
  DatePicker: {
    since: 0,
    input: { valueTypes: valueOf('string') },
    minMax: [['min-date', 'max-date', 'date']],
    shape: shape('DatePicker', {
      type: TYPE,
      name: NAME,
      label: required(str({ maxChars: 40 })),
      'min-date': str(),
      'max-date': str(),
      'unavailable-dates': strings(),
      'helper-text': str(),
      enabled: ENABLED,
      required: REQUIRED_FLAG,
      visible: VISIBLE,
      'init-value': str({ since: SINCE_4 }),
      'error-message': str({ since: SINCE_4 }),
      'on-select-action': action(['data_exchange'], { actions: { allowed: ['data_exchange'], otherCode: 'INVALID_ON_SELECT_ACTION' } }),
    }),
  },
  CalendarPicker: {
    since: 601,
    input: CALENDAR_INPUT,
    minMax: [
      ['min-date', 'max-date', 'date'],
      ['min-days', 'max-days', 'number'],
    ],
    shape: shape('CalendarPicker', {
      type: TYPE,
      name: NAME,
      title: str({ maxChars: 80 }),
      description: str(),
      label: required(rangeOf(str())),
      'helper-text': rangeOf(str()),
      required: rangeOf(bool()),
      enabled: ENABLED,
      visible: VISIBLE,
      mode: str({ enum: ['single', 'range'] }),
      'min-date': str(),
      'max-date': str(),
      'unavailable-dates': strings(),
      'include-days': strings({ items: str({ enum: WEEK_DAYS }) }),
      'min-days': int(),
      'max-days': int(),
      'init-value': rangeOf(str()),
      'error-message': rangeOf(str()),
      'on-select-action': action(['data_exchange'], { actions: { allowed: ['data_exchange'], otherCode: 'INVALID_ON_SELECT_ACTION' } }),
    }),
  },
  Image: {
    since: 0,
    perScreen: 'Image',
    shape: shape('Image', {
      type: TYPE,
      src: required(str()),
      width: int(),
      height: int(),
      'scale-type': str({ enum: SCALE_TYPES }),
      'aspect-ratio': num(),
      'alt-text': str(),
      visible: VISIBLE,
    }),
  },
  ImageCarousel: {
    since: 701,
    perScreen: 'ImageCarousel',
    shape: shape('ImageCarousel', {
      type: TYPE,
      images: required({
        types: ['array'],
        minItems: 1,
        maxItems: 3,
        items: { types: ['object'], shape: shape('an ImageCarousel image', { src: required(str()), 'alt-text': required(str()) }) },
      }),
      'aspect-ratio': str({ enum: ['4:3', '16:9'] }),
      'scale-type': str({ enum: SCALE_TYPES }),
      visible: VISIBLE,
    }),
  },
  PhotoPicker: {
    since: 400,
    perScreen: 'MediaPicker',
    input: { valueTypes: valueOf('array'), maxUploadsProperty: 'max-uploaded-photos' },
    minMax: [['min-uploaded-photos', 'max-uploaded-photos', 'number']],
    shape: shape('PhotoPicker', {
      type: TYPE,
      name: NAME,
      label: required(str()),
      description: str(),
      'photo-source': str({ enum: ['camera_gallery', 'camera', 'gallery'] }),
      'max-file-size-kb': int(),
      'min-uploaded-photos': int(),
      'max-uploaded-photos': int(),
      enabled: ENABLED,
      visible: VISIBLE,
      'error-message': str(),
    }),
  },
  DocumentPicker: {
    since: 400,
    perScreen: 'MediaPicker',
    input: { valueTypes: valueOf('array'), maxUploadsProperty: 'max-uploaded-documents' },
    minMax: [['min-uploaded-documents', 'max-uploaded-documents', 'number']],
    shape: shape('DocumentPicker', {
      type: TYPE,
      name: NAME,
      label: required(str()),
      description: str(),
      'max-file-size-kb': int(),
      'min-uploaded-documents': int(),
      'max-uploaded-documents': int(),
      'allowed-mime-types': strings(),
      enabled: ENABLED,
      visible: VISIBLE,
      'error-message': str(),
    }),
  },
  NavigationList: {
    since: 602,
    shape: shape('NavigationList', {
      type: TYPE,
      name: NAME,
      'list-items': required({
        types: ['array'],
        minItems: 1,
        maxItems: 20,
        items: {
          types: ['object'],
          shape: shape('a NavigationList item', {
            id: required(str()),
            'main-content': required({
              types: ['object'],
              shape: shape('main-content', { title: required(str()), description: str(), metadata: str() }),
            }),
            start: { types: ['object'], shape: shape('start', { image: required(str()), 'alt-text': str() }) },
            end: { types: ['object'], shape: shape('end', { title: str(), description: str(), metadata: str() }) },
            badge: str(),
            tags: strings(),
            'on-click-action': action(['navigate', 'data_exchange']),
          }),
        },
      }),
      label: str(),
      description: str(),
      'media-size': str({ enum: MEDIA_SIZES }),
      'on-click-action': action(['navigate', 'data_exchange']),
    }),
  },
  Form: {
    since: 0,
    shape: shape('Form', {
      type: TYPE,
      name: NAME,
      children: required({ types: ['array'], role: 'children', minItems: 1 }),
      'init-values': { types: ['object'], role: 'free' },
      'error-messages': { types: ['object'], role: 'free' },
    }),
  },
  If: {
    since: 400,
    shape: shape('If', {
      type: TYPE,
      condition: required(str({ role: 'condition' })),
      then: required({ types: ['array'], role: 'children', minItems: 1 }),
      else: { types: ['array'], role: 'children' },
    }),
  },
  Switch: {
    since: 400,
    shape: shape('Switch', {
      type: TYPE,
      value: required(str({ role: 'switch-value' })),
      cases: required({ types: ['object'], role: 'cases' }),
    }),
  },
}

export const COMPONENT_TYPES: readonly string[] = Object.keys(COMPONENTS)

/** Inputs that must sit inside a Form before 4.0 (the only inputs those versions have). */
export const FORM_ONLY_BEFORE_4 = new Set(['TextInput', 'TextArea', 'CheckboxGroup', 'RadioButtonsGroup', 'OptIn', 'Dropdown', 'DatePicker'])

/** The layout of a screen. */
export const LAYOUT_SHAPE = shape('layout', {
  type: required(str({ enum: ['SingleColumnLayout'], staticOnly: true })),
  children: required({ types: ['array'], role: 'children', minItems: 1 }),
})
