/**
 * Adds a classic script from the Parley server and hands it `handed` on its own script
 * element (document.currentScript), not through a global of the page; the script hands its
 * exports back by calling `handed.loaded`. A failed load rejects and removes the element.
 */
export function loadScript<T>(src: string, handed: object): Promise<T> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script')
    script.src = src
    script.async = true
    Object.assign(script, { parleyRuntime: { ...handed, loaded: resolve } })
    script.onerror = () => {
      script.remove()
      reject(new Error(`could not load ${src}`))
    }
    document.head.appendChild(script)
  })
}
