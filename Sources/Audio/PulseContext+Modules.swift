import CPulseAudio

/// Loading, listing and unloading server modules. Each answer arrives on the
/// mainloop's thread; a list ends with one nil.
extension PulseContext {
    /// Loads `name` with `arguments` (`pa_context_load_module`); answers its index, nil when refused.
    func loadModule(_ name: String, arguments: String, _ answer: @escaping (UInt32?) -> Void) -> PulseOperation? {
        let callback = PulseCallback<UInt32?>.retained(answer)
        return PulseOperation(pa_context_load_module(handle, name, arguments, { _, index, userData in
            PulseCallback<UInt32?>.call(userData, with: index == UInt32.max ? nil : index)
        }, callback.userData), callback: callback)
    }

    /// Unloads the module at `index` (`pa_context_unload_module`); answers whether it went.
    func unloadModule(_ index: UInt32, _ answer: @escaping (Bool) -> Void) -> PulseOperation? {
        let callback = PulseCallback<Bool>.retained(answer)
        return PulseOperation(pa_context_unload_module(handle, index, { _, success, userData in
            PulseCallback<Bool>.call(userData, with: success != 0)
        }, callback.userData), callback: callback)
    }

    /// Suspends the source named `name` (`pa_context_suspend_source_by_name`); answers whether it took.
    func suspendSource(named name: String, _ answer: @escaping (Bool) -> Void) -> PulseOperation? {
        let callback = PulseCallback<Bool>.retained(answer)
        return PulseOperation(pa_context_suspend_source_by_name(handle, name, 1, { _, success, userData in
            PulseCallback<Bool>.call(userData, with: success != 0)
        }, callback.userData), callback: callback)
    }

    /// Suspends the sink named `name` (`pa_context_suspend_sink_by_name`); answers whether it took.
    func suspendSink(named name: String, _ answer: @escaping (Bool) -> Void) -> PulseOperation? {
        let callback = PulseCallback<Bool>.retained(answer)
        return PulseOperation(pa_context_suspend_sink_by_name(handle, name, 1, { _, success, userData in
            PulseCallback<Bool>.call(userData, with: success != 0)
        }, callback.userData), callback: callback)
    }

    /// Every loaded module, then nil (`pa_context_get_module_info_list`).
    func modules(_ answer: @escaping (LoadedModule?) -> Void) -> PulseOperation? {
        let callback = PulseCallback<LoadedModule?>.retained(answer)
        return PulseOperation(pa_context_get_module_info_list(handle, { _, info, endOfList, userData in
            let module = endOfList == 0 ? info.map { LoadedModule($0.pointee) } : nil
            PulseCallback<LoadedModule?>.call(userData, with: module, last: module == nil)
        }, callback.userData), callback: callback)
    }
}

/// One module the server has loaded.
struct LoadedModule: Sendable, Equatable {
    var index: UInt32
    var name: String
    var arguments: String

    init(_ info: pa_module_info) {
        index = info.index
        name = info.name.map { String(cString: $0) } ?? ""
        arguments = info.argument.map { String(cString: $0) } ?? ""
    }
}
