// The C++ side of `src/io/step.rs`: a thin shim over the system's OpenCASCADE (7.6).
//
// It reads a STEP, IGES or BREP file into solids, integrates each solid by BRepGProp and
// tessellates it on request. Everything crosses into Rust through a plain C ABI: opaque
// handles, numbers, and a status code with a message (one line) for every failure. No C++
// exception crosses the boundary: every entry point catches Standard_Failure,
// std::exception and anything else.
//
// Built by build.rs only with the cargo feature `step`.

#include "green.h"

#include <BRepAdaptor_Surface.hxx>
#include <BRepAlgoAPI_Common.hxx>
#include <BRepBndLib.hxx>
#include <BRepBuilderAPI_Copy.hxx>
#include <BRepBuilderAPI_MakeSolid.hxx>
#include <BRepBuilderAPI_NurbsConvert.hxx>
#include <BRepBuilderAPI_Transform.hxx>
#include <BRepCheck.hxx>
#include <BRepCheck_Analyzer.hxx>
#include <BRepCheck_ListOfStatus.hxx>
#include <BRepCheck_Result.hxx>
#include <BRepCheck_Status.hxx>
#include <BRepGProp.hxx>
#include <BRepGProp_Domain.hxx>
#include <BRepGProp_Face.hxx>
#include <BRepGProp_Sinert.hxx>
#include <BRepGProp_Vinert.hxx>
#include <BRepLib.hxx>
#include <BRepMesh_IncrementalMesh.hxx>
#include <BRepPrimAPI_MakeBox.hxx>
#include <BRepPrimAPI_MakeCone.hxx>
#include <BRepPrimAPI_MakeCylinder.hxx>
#include <BRepPrimAPI_MakeSphere.hxx>
#include <BRepPrimAPI_MakeTorus.hxx>
#include <BRepAlgoAPI_Cut.hxx>
#include <BRepTools.hxx>
#include <BRep_Builder.hxx>
#include <BRep_Tool.hxx>
#include <Bnd_Box.hxx>
#include <GProp_GProps.hxx>
#include <Geom2d_Curve.hxx>
#include <Geom_BSplineSurface.hxx>
#include <Geom_RectangularTrimmedSurface.hxx>
#include <ElCLib.hxx>
#include <IFSelect_ReturnStatus.hxx>
#include <IGESControl_Reader.hxx>
#include <IGESControl_Writer.hxx>
#include <Interface_Check.hxx>
#include <Interface_CheckIterator.hxx>
#include <Interface_CheckTool.hxx>
#include <Interface_EntityIterator.hxx>
#include <Interface_Graph.hxx>
#include <Interface_InterfaceModel.hxx>
#include <StepData_StepModel.hxx>
#include <StepRepr_NextAssemblyUsageOccurrence.hxx>
#include <StepRepr_ShapeRepresentationRelationship.hxx>
#include <StepShape_ContextDependentShapeRepresentation.hxx>
#include <StepShape_ShapeRepresentation.hxx>
#include <Interface_Static.hxx>
#include <Message.hxx>
#include <Message_Messenger.hxx>
#include <Message_PrinterOStream.hxx>
#include <Poly_PolygonOnTriangulation.hxx>
#include <Poly_Triangulation.hxx>
#include <STEPCAFControl_Reader.hxx>
#include <STEPCAFControl_Writer.hxx>
#include <STEPControl_Controller.hxx>
#include <STEPControl_Reader.hxx>
#include <STEPControl_Writer.hxx>
#include <Standard_Failure.hxx>
#include <TColStd_SequenceOfAsciiString.hxx>
#include <TDF_ChildIterator.hxx>
#include <TDF_Label.hxx>
#include <TDF_LabelSequence.hxx>
#include <TDataStd_Name.hxx>
#include <TDocStd_Document.hxx>
#include <TColStd_Array1OfInteger.hxx>
#include <TColStd_Array1OfReal.hxx>
#include <TopExp.hxx>
#include <TopExp_Explorer.hxx>
#include <TopLoc_Location.hxx>
#include <TopTools_IndexedMapOfShape.hxx>
#include <TopTools_MapOfShape.hxx>
#include <TopoDS.hxx>
#include <TopoDS_Compound.hxx>
#include <TopoDS_Edge.hxx>
#include <TopoDS_Face.hxx>
#include <TopoDS_Iterator.hxx>
#include <TopoDS_Shell.hxx>
#include <TopoDS_Solid.hxx>
#include <TopoDS_Vertex.hxx>
#include <Transfer_TransientProcess.hxx>
#include <XCAFApp_Application.hxx>
#include <Quantity_Color.hxx>
#include <TDataStd_TreeNode.hxx>
#include <XCAFDoc.hxx>
#include <XCAFDoc_ColorTool.hxx>
#include <XCAFDoc_DocumentTool.hxx>
#include <XCAFDoc_Material.hxx>
#include <XCAFDoc_MaterialTool.hxx>
#include <XCAFDoc_ShapeTool.hxx>
#include <XSControl_TransferReader.hxx>
#include <XSControl_WorkSession.hxx>
#include <gp_Ax1.hxx>
#include <gp_Ax2.hxx>
#include <gp_Trsf.hxx>

#include <algorithm>
#include <array>
#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <exception>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern "C" {

/// Status codes; the Rust side mirrors them (`step.rs`, `Code`).
enum InertiaCadStatus {
    INERTIA_CAD_OK = 0,
    /// The file could not be read or parsed (missing, malformed, truncated).
    INERTIA_CAD_UNREADABLE = 1,
    /// The file holds no shape at all.
    INERTIA_CAD_EMPTY = 2,
    /// A solid fails BRepCheck_Analyzer.
    INERTIA_CAD_INVALID = 3,
    /// An open shell or a face outside any solid.
    INERTIA_CAD_OPEN = 4,
    /// An OpenCASCADE exception, or an algorithm that did not finish.
    INERTIA_CAD_FAILED = 5,
    /// A bad argument (index out of range, unknown kind).
    INERTIA_CAD_ARGUMENT = 6,
    /// A solid of zero or negative volume (inside-out).
    INERTIA_CAD_INSIDE_OUT = 7,
};

/// One solid's integrals (unit density), as BRepGProp gives them.
struct InertiaCadProps {
    double volume;
    double centroid[3];
    /// About the centroid, rows x, y, z; off-diagonals −∫xy dV (tensor convention).
    double inertia[9];
    double surface_area;
    double bbox_min[3];
    double bbox_max[3];
    /// Faces, shells of the solid.
    uint64_t faces;
    uint64_t shells;
};

}  // extern "C"

namespace {

/// What a STEP file says of a part besides its shape (XCAF): its colour and material.
struct Appearance {
    /// Red, green, blue in 0..1 (sRGB, as the file writes them); has_color false if none.
    bool has_color = false;
    double rgb[3] = {0, 0, 0};
    /// The material's name ("" if none) and density in g/cm³ (0 if none), as XCAF keeps
    /// it (XCAFDoc_MaterialTool: "default dimension of density - gram/cm^3").
    std::string material;
    double density = 0.0;
};

struct Solid {
    TopoDS_Shape shape;
    std::string name;
    Appearance look;
};

/// The colour XCAF gives a label (surface colour, else generic), into `look`.
bool label_color(const Handle(XCAFDoc_ColorTool)& tool, const TDF_Label& l, Appearance* look) {
    if (tool.IsNull() || l.IsNull()) {
        return false;
    }
    Quantity_Color c;
    if (!tool->GetColor(l, XCAFDoc_ColorSurf, c) && !tool->GetColor(l, XCAFDoc_ColorGen, c)) {
        return false;
    }
    Standard_Real r = 0, g = 0, b = 0;
    c.Values(r, g, b, Quantity_TOC_sRGB);
    look->has_color = true;
    look->rgb[0] = r;
    look->rgb[1] = g;
    look->rgb[2] = b;
    return true;
}

/// The material XCAF links to a label (a TreeNode reference to a material label), into
/// `look`.
bool label_material(const TDF_Label& l, Appearance* look) {
    Handle(TDataStd_TreeNode) node;
    if (l.IsNull() || !l.FindAttribute(XCAFDoc::MaterialRefGUID(), node) || !node->HasFather()) {
        return false;
    }
    Handle(XCAFDoc_Material) m;
    if (!node->Father()->Label().FindAttribute(XCAFDoc_Material::GetID(), m)) {
        return false;
    }
    Handle(TCollection_HAsciiString) name = m->GetName();
    look->material = name.IsNull() ? std::string() : std::string(name->ToCString());
    look->density = m->GetDensity();
    return true;
}

struct Cad {
    std::vector<Solid> solids;
    /// The length unit of the numbers in `solids` as the file names it ("MILLIMETRE",
    /// "INCH"), empty when the format states none (BREP).
    std::string unit;
    /// Metres per that unit (0 when unknown).
    double metres = 0.0;
    /// The last tessellation, kept for the copy call.
    std::vector<double> nodes;
    std::vector<uint32_t> triangles;
};

void put(char* msg, size_t len, const std::string& text) {
    if (msg == nullptr || len == 0) {
        return;
    }
    size_t n = text.size() < len - 1 ? text.size() : len - 1;
    std::memcpy(msg, text.data(), n);
    msg[n] = '\0';
}

std::string failure_text(const Standard_Failure& e) {
    std::string what = e.GetMessageString() ? e.GetMessageString() : "";
    std::string type = e.DynamicType()->Name();
    return what.empty() ? "OpenCASCADE " + type : "OpenCASCADE " + type + ": " + what;
}

/// Runs `f`, turning every exception into INERTIA_CAD_FAILED and a message.
template <typename F>
int guarded(char* msg, size_t len, F f) {
    try {
        return f();
    } catch (const Standard_Failure& e) {
        put(msg, len, failure_text(e));
    } catch (const std::exception& e) {
        put(msg, len, std::string("C++ exception: ") + e.what());
    } catch (...) {
        put(msg, len, "unknown C++ exception");
    }
    return INERTIA_CAD_FAILED;
}

/// OpenCASCADE prints reader statistics and warnings on standard output, where the
/// report goes: its printers are removed once. The STEP controller is initialised here
/// too: its first initialisation sets the static parameters (write.step.unit,
/// xstep.cascade.unit) to their defaults, which would undo a value set before it.
void quiet() {
    static std::once_flag once;
    std::call_once(once, [] {
        // Some of OpenCASCADE writes to std::cout and std::cerr directly ("File was not
        // written with this version of the topology"): nothing else in the program uses
        // the C++ streams, so they are sent nowhere (no buffer: writes fail quietly), once,
        // for good.
        std::cout.rdbuf(nullptr);
        std::cerr.rdbuf(nullptr);
        STEPControl_Controller::Init();
        const Handle(Message_Messenger)& m = Message::DefaultMessenger();
        m->RemovePrinters(STANDARD_TYPE(Message_PrinterOStream));
    });
}

/// The reader's global parameters (Interface_Static) are shared: one read at a time.
std::mutex& reading() {
    static std::mutex m;
    return m;
}

/// A length unit name as STEP writes it, and metres per unit.
bool unit_metres(const std::string& name, double* metres) {
    static const std::map<std::string, double> known = {
        {"METRE", 1.0},          {"MILLIMETRE", 1e-3},   {"CENTIMETRE", 1e-2},
        {"DECIMETRE", 1e-1},     {"KILOMETRE", 1e3},     {"MICROMETRE", 1e-6},
        {"NANOMETRE", 1e-9},     {"INCH", 0.0254},       {"FOOT", 0.3048},
        {"MILE", 1609.344},      {"YARD", 0.9144},       {"MIL", 0.0254e-3},
        {"MICROINCH", 0.0254e-6}, {"MM", 1e-3},          {"M", 1.0},
        {"CM", 1e-2},            {"IN", 0.0254},         {"FT", 0.3048},
    };
    auto it = known.find(name);
    if (it == known.end()) {
        return false;
    }
    *metres = it->second;
    return true;
}

/// The name xstep.cascade.unit knows a STEP length unit by, or "".
std::string cascade_name(const std::string& unit) {
    static const std::map<std::string, std::string> names = {
        {"METRE", "M"},     {"MILLIMETRE", "MM"}, {"CENTIMETRE", "CM"}, {"KILOMETRE", "KM"},
        {"MICROMETRE", "UM"}, {"INCH", "INCH"},   {"FOOT", "FT"},       {"MILE", "MI"},
        {"MIL", "MIL"},     {"MICROINCH", "UIN"},
    };
    auto it = names.find(unit);
    return it == names.end() ? std::string() : it->second;
}

/// "#42 MANIFOLD_SOLID_BREP" for the STEP entity a shape came from, or "".
std::string entity_of(const Handle(XSControl_WorkSession)& ws, const TopoDS_Shape& s) {
    if (ws.IsNull()) {
        return "";
    }
    try {
        Handle(XSControl_TransferReader) tr = ws->TransferReader();
        if (tr.IsNull()) {
            return "";
        }
        Handle(Standard_Transient) ent = tr->EntityFromShapeResult(s, 1);
        if (ent.IsNull()) {
            ent = tr->EntityFromShapeResult(s, -1);
        }
        if (ent.IsNull()) {
            return "";
        }
        Handle(Interface_InterfaceModel) model = ws->Model();
        if (model.IsNull()) {
            return "";
        }
        Standard_Integer n = model->Number(ent);
        std::string type = ent->DynamicType()->Name();
        // StepShape_ManifoldSolidBrep -> MANIFOLD_SOLID_BREP
        size_t cut = type.find('_');
        if (cut != std::string::npos) {
            type = type.substr(cut + 1);
        }
        std::string upper;
        for (size_t k = 0; k < type.size(); ++k) {
            char c = type[k];
            if (k > 0 && c >= 'A' && c <= 'Z') {
                upper += '_';
            }
            upper += static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
        }
        return n > 0 ? "#" + std::to_string(n) + " " + upper : upper;
    } catch (...) {
        return "";
    }
}

std::string label_name(const TDF_Label& l) {
    Handle(TDataStd_Name) n;
    if (!l.FindAttribute(TDataStd_Name::GetID(), n)) {
        return "";
    }
    const TCollection_ExtendedString& e = n->Get();
    TCollection_AsciiString a(e, '?');
    std::string name = a.ToCString();
    // Unnamed labels are named by their entry ("=>[0:1:1:3]"): no name.
    if (name.rfind("=>[", 0) == 0) {
        return "";
    }
    return name;
}

/// Where a shape's solids go: each solid with its name; closed shells outside solids
/// made solids; an open shell or a face outside any shell refused.
struct Collector {
    Cad* cad;
    Handle(XSControl_WorkSession) ws;
    std::string error;
    int code = INERTIA_CAD_OK;

    /// The colours of the document being read (null for IGES and BREP).
    Handle(XCAFDoc_ColorTool) colors;
    /// What the labels above the shape being added say of it.
    Appearance look;

    bool add(const TopoDS_Shape& shape, const std::string& name) {
        std::vector<TopoDS_Shape> found;
        for (TopExp_Explorer e(shape, TopAbs_SOLID); e.More(); e.Next()) {
            found.push_back(e.Current());
        }
        for (TopExp_Explorer e(shape, TopAbs_SHELL, TopAbs_SOLID); e.More(); e.Next()) {
            const TopoDS_Shell& shell = TopoDS::Shell(e.Current());
            if (!BRep_Tool::IsClosed(shell)) {
                std::string ent = entity_of(ws, shell);
                error = (name.empty() ? std::string() : "'" + name + "': ") + "an open shell" +
                        (ent.empty() ? "" : " (" + ent + ")") +
                        " bounds no volume (a surface, not a solid)";
                code = INERTIA_CAD_OPEN;
                return false;
            }
            BRepBuilderAPI_MakeSolid make(shell);
            if (!make.IsDone()) {
                error = "a closed shell could not be made a solid";
                code = INERTIA_CAD_FAILED;
                return false;
            }
            TopoDS_Solid solid = make.Solid();
            BRepLib::OrientClosedSolid(solid);
            found.push_back(solid);
        }
        for (TopExp_Explorer e(shape, TopAbs_FACE, TopAbs_SHELL); e.More(); e.Next()) {
            std::string ent = entity_of(ws, e.Current());
            error = (name.empty() ? std::string() : "'" + name + "': ") + "a face" +
                    (ent.empty() ? "" : " (" + ent + ")") +
                    " outside any solid bounds no volume (a surface, not a solid)";
            code = INERTIA_CAD_OPEN;
            return false;
        }
        for (size_t k = 0; k < found.size(); ++k) {
            Solid s;
            s.shape = found[k];
            s.name = name;
            s.look = look;
            // A colour given to the solid itself (a sub-shape of its part) comes first.
            Quantity_Color c;
            if (!colors.IsNull() && (colors->GetColor(found[k], XCAFDoc_ColorSurf, c) ||
                                     colors->GetColor(found[k], XCAFDoc_ColorGen, c))) {
                Standard_Real r = 0, g = 0, b = 0;
                c.Values(r, g, b, Quantity_TOC_sRGB);
                s.look.has_color = true;
                s.look.rgb[0] = r;
                s.look.rgb[1] = g;
                s.look.rgb[2] = b;
            }
            if (found.size() > 1) {
                s.name = (name.empty() ? "solid " : name + " solid ") + std::to_string(k + 1);
            }
            cad->solids.push_back(s);
        }
        return true;
    }

    /// An XCAF label: an assembly's components placed (their locations composed down the
    /// tree), or a part's shape.
    bool walk(const TDF_Label& label, const TopLoc_Location& loc, const std::string& name,
              int depth) {
        if (depth > 64) {
            error = "the assembly is nested more than 64 levels deep";
            code = INERTIA_CAD_FAILED;
            return false;
        }
        if (XCAFDoc_ShapeTool::IsAssembly(label)) {
            TDF_LabelSequence comps;
            XCAFDoc_ShapeTool::GetComponents(label, comps, Standard_False);
            for (Standard_Integer k = 1; k <= comps.Length(); ++k) {
                const TDF_Label& c = comps.Value(k);
                TDF_Label ref;
                if (!XCAFDoc_ShapeTool::GetReferredShape(c, ref)) {
                    continue;
                }
                TopLoc_Location l = loc * XCAFDoc_ShapeTool::GetLocation(c);
                std::string n = label_name(c);
                if (n.empty()) {
                    n = label_name(ref);
                }
                Appearance outer = look;
                label_color(colors, c, &look);
                label_material(c, &look);
                bool ok = walk(ref, l, name.empty() ? n : name + "/" + n, depth + 1);
                look = outer;
                if (!ok) {
                    return false;
                }
            }
            return true;
        }
        TopoDS_Shape s = XCAFDoc_ShapeTool::GetShape(label);
        if (s.IsNull()) {
            return true;
        }
        std::string n = name.empty() ? label_name(label) : name;
        // The part's own colour and material, unless an instance above gave one.
        Appearance outer = look;
        if (!look.has_color) {
            label_color(colors, label, &look);
        }
        if (look.material.empty() && look.density == 0.0) {
            label_material(label, &look);
        }
        bool ok = add(s.Moved(loc), n);
        look = outer;
        return ok;
    }
};

/// An XCAF document, closed when it goes (the application keeps every open one).
struct Document {
    Handle(TDocStd_Document) doc;
    Document() { XCAFApp_Application::GetApplication()->NewDocument("MDTV-XCAF", doc); }
    ~Document() {
        try {
            if (!doc.IsNull() && doc->IsOpened()) {
                XCAFApp_Application::GetApplication()->Close(doc);
            }
        } catch (...) {
        }
    }
};

/// The first load fault of an entity the shapes are made of, as "#12: message", or an
/// entity among them that refers back to itself through others (OpenCASCADE's translator
/// recurses without end on one; one that names itself directly is refused before the
/// parser, in step.rs), or "".
std::string geometry_fault(const Handle(StepData_StepModel)& model) {
    Handle(Interface_Check) global = model->GlobalCheck();
    if (!global.IsNull() && global->HasFailed()) {
        return global->CFail(1);
    }
    Interface_CheckTool tool(model);
    Interface_CheckIterator fails = tool.AnalyseCheckList();
    std::map<Standard_Integer, std::string> faulty;
    for (fails.Start(); fails.More(); fails.Next()) {
        const Handle(Interface_Check)& check = fails.Value();
        if (!check.IsNull() && check->HasFailed() && fails.Number() > 0) {
            faulty.emplace(fails.Number(), check->CFail(1));
        }
    }
    // What the shapes are made of: everything shape representations, their relationships
    // (assembly placements) and the usage of one product in another refer to.
    Interface_Graph graph(model);
    Standard_Integer n = model->NbEntities();
    std::vector<std::vector<Standard_Integer>> below(static_cast<size_t>(n) + 1);
    std::vector<char> used(static_cast<size_t>(n) + 1, 0);
    std::vector<Standard_Integer> stack;
    for (Standard_Integer k = 1; k <= n; ++k) {
        const Handle(Standard_Transient)& e = model->Value(k);
        if (e->IsKind(STANDARD_TYPE(StepShape_ShapeRepresentation)) ||
            e->IsKind(STANDARD_TYPE(StepRepr_ShapeRepresentationRelationship)) ||
            e->IsKind(STANDARD_TYPE(StepShape_ContextDependentShapeRepresentation)) ||
            e->IsKind(STANDARD_TYPE(StepRepr_NextAssemblyUsageOccurrence))) {
            used[k] = 1;
            stack.push_back(k);
        }
    }
    while (!stack.empty()) {
        Standard_Integer k = stack.back();
        stack.pop_back();
        Interface_EntityIterator it = graph.Shareds(model->Value(k));
        for (it.Start(); it.More(); it.Next()) {
            Standard_Integer m = model->Number(it.Value());
            if (m > 0 && m <= n) {
                below[k].push_back(m);
                if (!used[m]) {
                    used[m] = 1;
                    stack.push_back(m);
                }
            }
        }
    }
    auto label = [&](Standard_Integer k) {
        return "#" + std::to_string(model->IdentLabel(model->Value(k)));
    };
    for (const auto& f : faulty) {
        if (f.first <= n && used[f.first]) {
            return label(f.first) + ": " + f.second;
        }
    }
    // A cycle among them (depth-first, without recursion).
    std::vector<char> state(static_cast<size_t>(n) + 1, 0);  // 0 new, 1 open, 2 done
    std::vector<std::pair<Standard_Integer, size_t>> path;
    for (Standard_Integer root = 1; root <= n; ++root) {
        if (!used[root] || state[root] != 0) {
            continue;
        }
        state[root] = 1;
        path.emplace_back(root, 0);
        while (!path.empty()) {
            auto& [k, next] = path.back();
            if (next < below[k].size()) {
                Standard_Integer m = below[k][next++];
                if (state[m] == 1) {
                    return label(m) + " refers back to itself (through " + label(k) + ")";
                }
                if (state[m] == 0) {
                    state[m] = 1;
                    path.emplace_back(m, 0);
                }
            } else {
                state[k] = 2;
                path.pop_back();
            }
        }
    }
    return "";
}

int read_step(const char* path, Cad* cad, bool units_only, char* msg, size_t len) {
    Document document;
    Handle(TDocStd_Document) doc = document.doc;
    STEPCAFControl_Reader reader;
    reader.SetNameMode(true);
    reader.SetColorMode(true);
    reader.SetLayerMode(false);
    reader.SetPropsMode(false);
    reader.SetGDTMode(false);
    reader.SetMatMode(true);
    reader.SetViewMode(false);
    IFSelect_ReturnStatus status = reader.ReadFile(path);
    if (status != IFSelect_RetDone) {
        put(msg, len, "not a readable STEP file (OpenCASCADE's parser stopped)");
        return INERTIA_CAD_UNREADABLE;
    }
    STEPControl_Reader& plain = reader.ChangeReader();
    // What the parser found wrong while loading (a reference to an entity that is not
    // there, or of the wrong type): OpenCASCADE's translator follows such a reference to
    // nothing and crashes. Such a fault in what the shapes are made of (everything a shape
    // representation or an assembly's placement refers to, down to its points) refuses the
    // file, naming the entity; one elsewhere (PMI, presentation) is left, as the shapes do
    // not use it.
    {
        Handle(StepData_StepModel) model =
            Handle(StepData_StepModel)::DownCast(plain.WS()->Model());
        if (model.IsNull()) {
            put(msg, len, "not a readable STEP file (no model)");
            return INERTIA_CAD_UNREADABLE;
        }
        std::string fault = geometry_fault(model);
        if (!fault.empty()) {
            put(msg, len, "not a valid STEP file: " + fault);
            return INERTIA_CAD_UNREADABLE;
        }
    }
    // The file's length unit: the numbers OpenCASCADE returns are kept in it (the unit
    // of its result below is set to the file's own), so the report is in the file's unit.
    TColStd_SequenceOfAsciiString lengths, angles, solid_angles;
    plain.FileUnits(lengths, angles, solid_angles);
    std::string unit;
    for (Standard_Integer k = 1; k <= lengths.Length(); ++k) {
        TCollection_AsciiString a = lengths.Value(k);
        a.UpperCase();
        std::string u = a.ToCString();
        if (unit.empty()) {
            unit = u;
        } else if (u != unit) {
            put(msg, len, "the file states two length units (" + unit + " and " + u + ")");
            return INERTIA_CAD_UNREADABLE;
        }
    }
    if (!unit.empty() && !unit_metres(unit, &cad->metres)) {
        put(msg, len, "unknown length unit " + unit);
        return INERTIA_CAD_UNREADABLE;
    }
    // OpenCASCADE converts what it reads into xstep.cascade.unit (millimetres unless
    // set). Set to the file's own unit, the numbers are those the file holds; a unit it
    // has no name for (decimetre, yard, nanometre) is converted to millimetres.
    std::string cascade = cascade_name(unit);
    if (!unit.empty() && cascade.empty()) {
        unit = "MILLIMETRE";
        cascade = "MM";
        cad->metres = 1e-3;
    }
    cad->unit = unit;
    Interface_Static::SetCVal("xstep.cascade.unit", cascade.empty() ? "MM" : cascade.c_str());
    if (units_only) {
        return INERTIA_CAD_OK;
    }
    if (plain.NbRootsForTransfer() == 0) {
        put(msg, len, "no shape in the file");
        return INERTIA_CAD_EMPTY;
    }
    if (!reader.Transfer(doc)) {
        put(msg, len, "OpenCASCADE could not translate the file's shapes");
        return INERTIA_CAD_UNREADABLE;
    }
    Handle(XCAFDoc_ShapeTool) tool = XCAFDoc_DocumentTool::ShapeTool(doc->Main());
    TDF_LabelSequence roots;
    tool->GetFreeShapes(roots);
    Collector c{cad, plain.WS()};
    c.colors = XCAFDoc_DocumentTool::ColorTool(doc->Main());
    for (Standard_Integer k = 1; k <= roots.Length(); ++k) {
        if (!c.walk(roots.Value(k), TopLoc_Location(), "", 0)) {
            put(msg, len, c.error);
            return c.code;
        }
    }
    return INERTIA_CAD_OK;
}

int read_iges(const char* path, Cad* cad, char* msg, size_t len) {
    // Results in millimetres, whatever a STEP file read before left the unit at.
    Interface_Static::SetCVal("xstep.cascade.unit", "MM");
    IGESControl_Reader reader;
    if (reader.ReadFile(path) != IFSelect_RetDone) {
        put(msg, len, "not a readable IGES file (OpenCASCADE's parser stopped)");
        return INERTIA_CAD_UNREADABLE;
    }
    // IGES shapes come back in OpenCASCADE's unit (millimetres).
    cad->unit = "MILLIMETRE";
    cad->metres = 1e-3;
    if (reader.TransferRoots() == 0) {
        put(msg, len, "no shape in the file");
        return INERTIA_CAD_EMPTY;
    }
    Collector c{cad, reader.WS()};
    for (Standard_Integer k = 1; k <= reader.NbShapes(); ++k) {
        if (!c.add(reader.Shape(k), "")) {
            put(msg, len, c.error);
            return c.code;
        }
    }
    return INERTIA_CAD_OK;
}

int read_brep(const char* path, Cad* cad, char* msg, size_t len) {
    TopoDS_Shape shape;
    BRep_Builder b;
    if (!BRepTools::Read(shape, path, b) || shape.IsNull()) {
        put(msg, len, "not a readable BREP file");
        return INERTIA_CAD_UNREADABLE;
    }
    Collector c{cad, Handle(XSControl_WorkSession)()};
    if (!c.add(shape, "")) {
        put(msg, len, c.error);
        return c.code;
    }
    return INERTIA_CAD_OK;
}

/// The first status other than "no error" in a list, as BRepCheck::Print words it
/// ("BadOrientationOfSubshape"), or "".
std::string first_error(const BRepCheck_ListOfStatus& list) {
    for (BRepCheck_ListIteratorOfListOfStatus it(list); it.More(); it.Next()) {
        if (it.Value() != BRepCheck_NoError) {
            std::ostringstream os;
            BRepCheck::Print(it.Value(), os);
            std::string status = os.str();
            while (!status.empty() && (status.back() == '\n' || status.back() == ' ')) {
                status.pop_back();
            }
            return status.empty() ? "an error" : status;
        }
    }
    return "";
}

/// What BRepCheck found wrong with `sub`, on its own or as a part of `solid`, or "".
std::string status_of(BRepCheck_Analyzer& a, const TopoDS_Shape& sub, const TopoDS_Shape& solid) {
    const Handle(BRepCheck_Result)& r = a.Result(sub);
    if (r.IsNull()) {
        return "";
    }
    std::string own = first_error(r->Status());
    if (!own.empty()) {
        return own;
    }
    if (!sub.IsSame(solid) && r->IsStatusOnShape(solid)) {
        return first_error(r->StatusOnShape(solid));
    }
    return "";
}

/// What BRepCheck_Analyzer finds wrong with a solid: the first faulty subshape's kind,
/// index and status (or the solid's own status), or "".
std::string invalid(const TopoDS_Shape& s) {
    BRepCheck_Analyzer a(s);
    if (a.IsValid()) {
        return "";
    }
    const TopAbs_ShapeEnum kinds[] = {TopAbs_SHELL, TopAbs_FACE, TopAbs_WIRE, TopAbs_EDGE,
                                      TopAbs_VERTEX};
    const char* names[] = {"shell", "face", "wire", "edge", "vertex"};
    for (int k = 0; k < 5; ++k) {
        TopTools_IndexedMapOfShape map;
        TopExp::MapShapes(s, kinds[k], map);
        for (Standard_Integer i = 1; i <= map.Extent(); ++i) {
            std::string status = status_of(a, map(i), s);
            if (status.empty() && a.IsValid(map(i))) {
                continue;
            }
            return std::string(names[k]) + " " + std::to_string(i) +
                   (status.empty() ? "" : " (" + status + ")");
        }
    }
    std::string status = status_of(a, s, s);
    return "the solid" + (status.empty() ? std::string() : " (" + status + ")");
}

Bnd_Box bounds(const TopoDS_Shape& s) {
    Bnd_Box box;
    BRepBndLib::AddOptimal(s, box, Standard_False, Standard_False);
    return box;
}

/// The mean of a shape's vertices as TopExp_Explorer visits them (each as often as it is
/// met): the origin BRepGProp integrates a shell's faces about, so that their terms do not
/// cancel from far away.
gp_Pnt rough_centre(const TopoDS_Shape& s) {
    gp_XYZ sum(0, 0, 0);
    int n = 0;
    for (TopExp_Explorer e(s, TopAbs_VERTEX); e.More(); e.Next(), ++n) {
        sum += BRep_Tool::Pnt(TopoDS::Vertex(e.Current())).XYZ();
    }
    return gp_Pnt(n > 0 ? sum / n : sum);
}

/// Whether a periodic B-spline surface's knots, listed over one period from its first
/// knot, miss part of the range [lo, hi] a face spans: `u` picks the direction.
bool knots_miss(const Geom_BSplineSurface& b, bool u, double lo, double hi) {
    if (!(u ? b.IsUPeriodic() : b.IsVPeriodic())) {
        return false;
    }
    double first = u ? b.UKnot(1) : b.VKnot(1);
    double last = u ? b.UKnot(b.NbUKnots()) : b.VKnot(b.NbVKnots());
    double slack = 1e-12 * (last - first);
    return lo < first - slack || hi > last + slack;
}

/// Lists a periodic surface's knots over the period that starts at `lo`: a knot inserted
/// there (the same surface) made the first, and the knots moved by whole periods to start
/// at `lo` (the same surface again). Returns false, changing nothing it has not copied,
/// when the knots still miss [lo, hi].
bool list_from(Geom_BSplineSurface& b, bool u, double lo, double hi) {
    double period = u ? b.UPeriod() : b.VPeriod();
    double first = u ? b.UKnot(1) : b.VKnot(1);
    double at = ElCLib::InPeriod(lo, first, first + period);
    double tol = 1e-14 * period;
    if (u) {
        b.InsertUKnot(at, 1, tol, Standard_False);
    } else {
        b.InsertVKnot(at, 1, tol, Standard_False);
    }
    int n = u ? b.NbUKnots() : b.NbVKnots();
    int index = 0;
    double nearest = period;
    for (int i = 1; i <= n; ++i) {
        double d = std::abs((u ? b.UKnot(i) : b.VKnot(i)) - at);
        if (d < nearest) {
            nearest = d;
            index = i;
        }
    }
    if (index == 0 || nearest > tol) {
        return false;
    }
    if (u) {
        b.SetUOrigin(index);
    } else {
        b.SetVOrigin(index);
    }
    TColStd_Array1OfReal knots(1, n);
    if (u) {
        b.UKnots(knots);
    } else {
        b.VKnots(knots);
    }
    double shift = std::round((lo - knots(1)) / period) * period;
    if (shift != 0.0) {
        for (int i = 1; i <= n; ++i) {
            knots(i) += shift;
        }
        if (u) {
            b.SetUKnots(knots);
        } else {
            b.SetVKnots(knots);
        }
    }
    return !knots_miss(b, u, lo, hi);
}

/// `face` rebuilt on `surface` (placed by `loc`), which must be its own surface
/// parametrized the same way: its wires, and the same curves on the new surface for its
/// edges (a copy of the face is changed: its edges take the new curves too). Returns
/// `face` itself when an edge has no curve on it.
TopoDS_Face on_surface(const TopoDS_Face& face, const Handle(Geom_Surface)& surface,
                       const TopLoc_Location& loc) {
    BRep_Builder b;
    TopoDS_Face rebuilt;
    b.MakeFace(rebuilt, surface, loc, BRep_Tool::Tolerance(face));
    b.NaturalRestriction(rebuilt, BRep_Tool::NaturalRestriction(face));
    TopoDS_Face forward = TopoDS::Face(face.Oriented(TopAbs_FORWARD));
    for (TopoDS_Iterator w(forward); w.More(); w.Next()) {
        b.Add(rebuilt, w.Value());
    }
    for (TopExp_Explorer e(forward, TopAbs_EDGE); e.More(); e.Next()) {
        const TopoDS_Edge& edge = TopoDS::Edge(e.Current());
        double f, l;
        double tol = BRep_Tool::Tolerance(edge);
        Handle(Geom2d_Curve) c1 =
            BRep_Tool::CurveOnSurface(TopoDS::Edge(edge.Oriented(TopAbs_FORWARD)), forward, f, l);
        if (c1.IsNull()) {
            return face;
        }
        if (BRep_Tool::IsClosed(edge, forward)) {
            Handle(Geom2d_Curve) c2 = BRep_Tool::CurveOnSurface(
                TopoDS::Edge(edge.Oriented(TopAbs_REVERSED)), forward, f, l);
            if (c2.IsNull()) {
                return face;
            }
            b.UpdateEdge(edge, c1, c2, rebuilt, tol);
        } else {
            b.UpdateEdge(edge, c1, rebuilt, tol);
        }
        b.Range(edge, rebuilt, f, l);
    }
    rebuilt.Orientation(face.Orientation());
    return rebuilt;
}

/// BRepGProp integrates a face over its parameter range cut at the surface's knots, but
/// takes a periodic B-spline surface's knots over the one period they are listed for: on
/// a face whose range starts elsewhere (the NIST part's two swept B-spline faces start
/// 3 % of a period past the first knot), the part past that period is integrated across
/// its knots as one piece. Asked to any tolerance from 1e-5 to 1e-12, the first of them
/// had its volume term 4e-8 to 5e-7 of itself off the value it converges to once its
/// knots are listed over its range (asked to 1e-9 and to 1e-13, then within 1e-15 of
/// each other). Returns the face on a copy of its surface listing its knots from the
/// face's own first parameter: the same surface, the same curves on it, so that every
/// piece BRepGProp integrates lies between two knots. Any other face is returned as it is.
TopoDS_Face listed_over_range(const TopoDS_Face& face) {
    TopLoc_Location loc;
    Handle(Geom_Surface) surface = BRep_Tool::Surface(face, loc);
    while (auto trimmed = Handle(Geom_RectangularTrimmedSurface)::DownCast(surface)) {
        surface = trimmed->BasisSurface();
    }
    Handle(Geom_BSplineSurface) spline = Handle(Geom_BSplineSurface)::DownCast(surface);
    if (spline.IsNull()) {
        return face;
    }
    // The range BRepGProp_Face integrates over: the restricted adaptor's.
    BRepAdaptor_Surface range(face, Standard_True);
    double u1 = range.FirstUParameter(), u2 = range.LastUParameter();
    double v1 = range.FirstVParameter(), v2 = range.LastVParameter();
    bool u = knots_miss(*spline, true, u1, u2);
    bool v = knots_miss(*spline, false, v1, v2);
    if (!u && !v) {
        return face;
    }
    Handle(Geom_BSplineSurface) listed = Handle(Geom_BSplineSurface)::DownCast(spline->Copy());
    if ((u && !list_from(*listed, true, u1, u2)) || (v && !list_from(*listed, false, v1, v2))) {
        return face;
    }
    return on_surface(face, listed, loc);
}

/// `listed_over_range(face)` (above): a periodic B-spline face on a copy of its surface
/// listing its knots over the face's range, so that BRepGProp integrates it span by span.
/// Any other face (or one this cannot rebuild: OpenCASCADE refusing the knot or the
/// curves) is returned as it is, integrated as BRepGProp integrates it.
TopoDS_Face knots_from_range(const TopoDS_Face& face) {
    try {
        return listed_over_range(face);
    } catch (const Standard_Failure&) {
        return face;
    }
}

/// Whether a face lies on a B-spline or Bézier surface: the faces `green::integrate`
/// integrates (BRepGProp takes seconds on a trimmed B-spline face with many knots; the
/// NIST CTC-02 part's two swept faces took 3 s each). Planes, cylinders, cones, spheres,
/// tori and other surfaces stay with BRepGProp.
bool spline(const TopoDS_Face& f) {
    BRepAdaptor_Surface a(f, Standard_False);
    return a.GetType() == GeomAbs_BSplineSurface || a.GetType() == GeomAbs_BezierSurface;
}

/// A face's integrals from `green::integrate` held as BRepGProp's classes hold theirs:
/// the mass, the centre of mass relative to the location, and the matrix of inertia about
/// the location (off-diagonal terms -∫xy dm).
class GreenProps : public GProp_GProps {
public:
    GreenProps(const gp_Pnt& origin, const green::Moments& m) : GProp_GProps(origin) {
        dim = m.m[0];
        g = dim != 0.0 ? gp_Pnt(m.m[1] / dim, m.m[2] / dim, m.m[3] / dim) : gp_Pnt(0, 0, 0);
        double xx = m.m[4], yy = m.m[5], zz = m.m[6], xy = m.m[7], xz = m.m[8], yz = m.m[9];
        inertia = gp_Mat(yy + zz, -xy, -xz, -xy, xx + zz, -yz, -xz, -yz, xx + yy);
    }
};

/// One face's share of a solid's integrals: its volume term (about the shell's origin) or
/// its area, integrated alone; with its area, its optimal bounding box.
struct FaceTask {
    TopoDS_Face face;
    gp_Pnt origin;
    bool volume;
    double eps;
    GProp_GProps result;
    double error = 0.0;
    Bnd_Box box = Bnd_Box();
};

/// Whether a face's surface is one BRepGProp integrates slowly (a B-spline, Bézier,
/// offset or swept surface, not a plane, cylinder, cone, sphere or torus): such faces are
/// started first, so that one of them is not left to run alone at the end.
bool slow(const TopoDS_Face& f) {
    BRepAdaptor_Surface a(f, Standard_False);
    switch (a.GetType()) {
        case GeomAbs_Plane:
        case GeomAbs_Cylinder:
        case GeomAbs_Cone:
        case GeomAbs_Sphere:
        case GeomAbs_Torus:
            return false;
        default:
            return true;
    }
}

/// Runs every task on the machine's cores (each face's surface integral is independent of
/// the others), the slow faces first, each thread taking the next task from a shared
/// counter; the results stay in the tasks, in their order. The first exception of any
/// thread is rethrown here.
void run_tasks(std::vector<FaceTask>& tasks) {
    std::vector<size_t> order;
    for (int pass = 0; pass < 2; ++pass) {
        for (size_t k = 0; k < tasks.size(); ++k) {
            if (slow(tasks[k].face) == (pass == 0)) {
                order.push_back(k);
            }
        }
    }
    std::atomic<size_t> next{0};
    std::string failure;
    std::mutex failed;
    auto work = [&]() {
        try {
            for (size_t k = next++; k < order.size(); k = next++) {
                FaceTask& t = tasks[order[k]];
                double eps = t.eps;
                // A copy of the face and its geometry: faces that share a surface or an
                // edge would otherwise count references to the same objects from both
                // threads, and two B-spline faces of the NIST part took as long side by
                // side as one after the other. The copy is exact: the same numbers.
                TopoDS_Face copy = TopoDS::Face(
                    BRepBuilderAPI_Copy(t.face, Standard_True, Standard_False).Shape());
                if (!t.volume) {
                    // The solid's box is these boxes' union (as BRepBndLib::AddOptimal
                    // adds a shape's faces one by one), found here on every core: 0.5 s
                    // of the NIST part on one.
                    BRepBndLib::AddOptimal(copy, t.box, Standard_False, Standard_False);
                }
                if (spline(copy)) {
                    green::Moments m;
                    bool done = false;
                    try {
                        done = green::integrate(copy, t.origin, t.volume, eps, &m, &t.error);
                    } catch (const Standard_Failure&) {
                        // An evaluator refusing a point of this face: BRepGProp below
                        // integrates it as it did before green.cpp existed.
                        done = false;
                    }
                    if (done) {
                        t.result = GreenProps(t.origin, m);
                        continue;
                    }
                }
                TopoDS_Face own = knots_from_range(copy);
                BRepGProp_Face face;
                face.Load(own);
                BRepGProp_Domain domain;
                bool natural = own.NbChildren() == 0;
                if (!natural) {
                    domain.Init(own);
                }
                if (t.volume) {
                    BRepGProp_Vinert v;
                    v.SetLocation(t.origin);
                    t.error = natural ? v.Perform(face, eps) : v.Perform(face, domain, eps);
                    t.result = v;
                } else {
                    BRepGProp_Sinert a;
                    a.SetLocation(t.origin);
                    t.error = natural ? a.Perform(face, eps) : a.Perform(face, domain, eps);
                    t.result = a;
                }
            }
        } catch (const Standard_Failure& e) {
            std::lock_guard<std::mutex> l(failed);
            failure = failure.empty() ? failure_text(e) : failure;
            next = tasks.size();
        } catch (const std::exception& e) {
            std::lock_guard<std::mutex> l(failed);
            failure = failure.empty() ? std::string("C++ exception: ") + e.what() : failure;
            next = tasks.size();
        } catch (...) {
            std::lock_guard<std::mutex> l(failed);
            failure = failure.empty() ? "unknown C++ exception" : failure;
            next = tasks.size();
        }
    };
    unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    size_t helpers = std::min<size_t>(cores, tasks.size()) - (tasks.empty() ? 0 : 1);
    std::vector<std::thread> threads;
    for (size_t k = 0; k < helpers; ++k) {
        threads.emplace_back(work);
    }
    work();
    for (std::thread& t : threads) {
        t.join();
    }
    if (!failure.empty()) {
        throw std::runtime_error(failure);
    }
}

/// What BRepGProp::VolumeProperties(s, props, eps, OnlyClosed) and
/// BRepGProp::SurfaceProperties(s, area, eps, SkipShared) compute, the same terms added in
/// the same order (so the same numbers, whatever the number of threads), with every face's
/// integral on its own thread, and three differences: the terms are summed about the
/// solid's rough centre (BRepGProp sums them about the origin); a face on a B-spline or
/// Bézier surface is integrated by `green::integrate`; and should that decline it, a face
/// on a periodic B-spline surface is integrated by BRepGProp with the surface's knots
/// listed over the face's own range (`knots_from_range`). `box` gets the solid's optimal
/// bounding box, the union of its faces' (found with their areas). Returns false,
/// computing nothing, when a face has no surface (BRepGProp would then use its
/// triangulation): the caller calls BRepGProp itself.
bool integrate(const TopoDS_Shape& s, double volume_eps, double area_eps, GProp_GProps& props,
               double* volume_error, GProp_GProps& area, double* area_error, Bnd_Box& box) {
    std::vector<FaceTask> tasks;
    // Volume: each closed shell's faces about the shell's rough centre.
    for (TopExp_Explorer sh(s, TopAbs_SHELL); sh.More(); sh.Next()) {
        if (!BRep_Tool::IsClosed(sh.Current())) {
            continue;
        }
        gp_Pnt origin = rough_centre(sh.Current());
        for (TopExp_Explorer f(sh.Current(), TopAbs_FACE); f.More(); f.Next()) {
            const TopoDS_Face& face = TopoDS::Face(f.Current());
            TopAbs_Orientation o = face.Orientation();
            if (o != TopAbs_FORWARD && o != TopAbs_REVERSED) {
                continue;
            }
            TopLoc_Location loc;
            if (BRep_Tool::Surface(face, loc).IsNull()) {
                return false;
            }
            tasks.push_back(FaceTask{face, origin, true, volume_eps, GProp_GProps(), 0.0});
        }
    }
    size_t volumes = tasks.size();
    // Area: every face once, about the solid's rough centre.
    {
        gp_Pnt origin = rough_centre(s);
        TopTools_MapOfShape seen;
        for (TopExp_Explorer f(s, TopAbs_FACE); f.More(); f.Next()) {
            const TopoDS_Face& face = TopoDS::Face(f.Current());
            if (!seen.Add(face)) {
                continue;
            }
            TopLoc_Location loc;
            if (BRep_Tool::Surface(face, loc).IsNull()) {
                return false;
            }
            tasks.push_back(FaceTask{face, origin, false, area_eps, GProp_GProps(), 0.0});
        }
    }
    run_tasks(tasks);
    // The faces' terms are summed about the solid's rough centre, not about the origin as
    // BRepGProp::VolumeProperties sums them: a solid 10^6 from the origin would otherwise
    // have its tensor about the origin (~V·10^12) shifted back to its centroid, and a
    // torus 24 across at 2·10^6 lost all but 6 digits of its inertia (0.06 in 4·10^4).
    gp_Pnt centre = rough_centre(s);
    props = GProp_GProps(centre);
    area = GProp_GProps(centre);
    *volume_error = 0.0;
    *area_error = 0.0;
    for (size_t k = 0; k < tasks.size(); ++k) {
        FaceTask& t = tasks[k];
        (k < volumes ? props : area).Add(t.result);
        if (k >= volumes) {
            box.Add(t.box);
        }
        double& error = k < volumes ? *volume_error : *area_error;
        error = std::max(error, t.error);
    }
    return true;
}

/// IGES and BREP files go to OpenCASCADE without a check of their own, and its readers
/// crash on some damaged ones (SIGSEGV on half of a run of mutated IGES files) or loop
/// (BREP: a count read as millions of reals past the end of the file). So
/// the read and every integral are first tried in a child process: a crash or a hang there
/// refuses the file, and only a file that came through is read here. Returns "" when it
/// came through, else why not.
std::string trial(const char* path, int format) {
    pid_t pid = fork();
    if (pid < 0) {
        return "cannot start a process to try the file in";
    }
    if (pid == 0) {
        // The child: no destructors, no Rust, only this read and its integrals.
        try {
            Cad cad;
            char msg[8];
            int code = format == 1 ? read_iges(path, &cad, msg, sizeof msg)
                                   : read_brep(path, &cad, msg, sizeof msg);
            if (code == INERTIA_CAD_OK) {
                for (const Solid& s : cad.solids) {
                    if (!invalid(s.shape).empty()) {
                        continue;
                    }
                    GProp_GProps props;
                    BRepGProp::VolumeProperties(s.shape, props, 1e-9, Standard_True);
                    GProp_GProps surface;
                    BRepGProp::SurfaceProperties(s.shape, surface, 1e-9, Standard_True);
                }
            }
        } catch (...) {
        }
        _exit(0);
    }
    // A minute, and ten seconds more per megabyte: the trial reads and integrates as the
    // real run will, which on a sound file takes far less.
    struct stat st;
    long long bytes = stat(path, &st) == 0 ? static_cast<long long>(st.st_size) : 0;
    const long long limit_ms = 60000 + bytes / 100;
    for (long long waited = 0;; waited += 5) {
        int status = 0;
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) {
            if (WIFSIGNALED(status)) {
                return "OpenCASCADE crashed reading it (signal " + std::to_string(WTERMSIG(status)) +
                       "): a damaged file";
            }
            return "";
        }
        if (r < 0) {
            return "cannot follow the process trying the file";
        }
        if (waited >= limit_ms) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return "OpenCASCADE did not finish reading it in " + std::to_string(limit_ms / 1000) +
                   " s (a damaged file sends its reader round a loop)";
        }
        usleep(5000);
    }
}

}  // namespace

extern "C" {

/// Reads `path` as `format` (0 STEP, 1 IGES, 2 BREP; plus 256: parse a STEP file for its
/// unit only, transferring no shape). On success `*out` is a handle to free with
/// inertia_cad_free.
int inertia_cad_read(const char* path, int format, void** out, char* msg, size_t len) {
    if (out == nullptr || path == nullptr) {
        put(msg, len, "null argument");
        return INERTIA_CAD_ARGUMENT;
    }
    *out = nullptr;
    return guarded(msg, len, [&]() -> int {
        quiet();
        std::lock_guard<std::mutex> lock(reading());
        Cad* cad = new Cad();
        int code = INERTIA_CAD_ARGUMENT;
        try {
            if (format == 1 || format == 2) {
                std::string why = trial(path, format);
                if (!why.empty()) {
                    delete cad;
                    put(msg, len, why);
                    return static_cast<int>(INERTIA_CAD_UNREADABLE);
                }
            }
            switch (format) {
                case 0: code = read_step(path, cad, false, msg, len); break;
                case 256: code = read_step(path, cad, true, msg, len); break;
                case 1: code = read_iges(path, cad, msg, len); break;
                case 2: code = read_brep(path, cad, msg, len); break;
                default: put(msg, len, "unknown format"); break;
            }
        } catch (...) {
            delete cad;
            throw;
        }
        if (code == INERTIA_CAD_OK && cad->solids.empty() && format != 256) {
            put(msg, len, "no solid in the file");
            code = INERTIA_CAD_EMPTY;
        }
        if (code != INERTIA_CAD_OK) {
            delete cad;
            return code;
        }
        *out = cad;
        return INERTIA_CAD_OK;
    });
}

void inertia_cad_free(void* cad) {
    try {
        delete static_cast<Cad*>(cad);
    } catch (...) {
    }
}

size_t inertia_cad_count(const void* cad) {
    return cad == nullptr ? 0 : static_cast<const Cad*>(cad)->solids.size();
}

/// The length unit's name as the file states it ("" when none) and metres per unit.
int inertia_cad_unit(const void* cad, char* name, size_t len, double* metres) {
    if (cad == nullptr) {
        return INERTIA_CAD_ARGUMENT;
    }
    const Cad* c = static_cast<const Cad*>(cad);
    put(name, len, c->unit);
    *metres = c->metres;
    return INERTIA_CAD_OK;
}

/// The name of solid `k` (empty when it has none).
int inertia_cad_name(const void* cad, size_t k, char* name, size_t len) {
    const Cad* c = static_cast<const Cad*>(cad);
    if (c == nullptr || k >= c->solids.size()) {
        return INERTIA_CAD_ARGUMENT;
    }
    put(name, len, c->solids[k].name);
    return INERTIA_CAD_OK;
}

/// What the file says of solid `k` besides its shape: `*has_color` and `rgb` (sRGB, 0..1),
/// the material's name into `material` ("" if none) and its density in g/cm³ (0 if none).
int inertia_cad_appearance(const void* cad, size_t k, int* has_color, double* rgb,
                           char* material, size_t len, double* density) {
    const Cad* c = static_cast<const Cad*>(cad);
    if (c == nullptr || k >= c->solids.size() || has_color == nullptr || rgb == nullptr ||
        density == nullptr) {
        return INERTIA_CAD_ARGUMENT;
    }
    const Appearance& a = c->solids[k].look;
    *has_color = a.has_color ? 1 : 0;
    for (int q = 0; q < 3; ++q) {
        rgb[q] = a.rgb[q];
    }
    put(material, len, a.material);
    *density = a.density;
    return INERTIA_CAD_OK;
}

/// Checks solid `k` (BRepCheck_Analyzer) and integrates it with BRepGProp to the
/// relative tolerance `eps`; `*achieved` is the error estimate BRepGProp returns.
int inertia_cad_properties(const void* cad, size_t k, double eps, InertiaCadProps* out,
                           double* achieved, char* msg, size_t len) {
    const Cad* c = static_cast<const Cad*>(cad);
    if (c == nullptr || out == nullptr || achieved == nullptr || k >= c->solids.size()) {
        put(msg, len, "bad argument");
        return INERTIA_CAD_ARGUMENT;
    }
    return guarded(msg, len, [&]() -> int {
        const TopoDS_Shape& s = c->solids[k].shape;
        std::string bad = invalid(s);
        if (!bad.empty()) {
            put(msg, len, "OpenCASCADE's shape check fails at " + bad);
            return INERTIA_CAD_INVALID;
        }
        // The area is reported, not integrated further: to 1e-6 (or `eps` if looser), half
        // the time 1e-9 takes on the NIST part, whose area it gives within 1.1e-8 of its
        // value at 1e-9.
        double area_eps = eps > 1e-6 ? eps : 1e-6;
        GProp_GProps props, surface;
        double area_error = 0.0;
        Bnd_Box box;
        if (!integrate(s, eps, area_eps, props, achieved, surface, &area_error, box)) {
            *achieved = BRepGProp::VolumeProperties(s, props, eps, Standard_True);
            BRepGProp::SurfaceProperties(s, surface, area_eps, Standard_True);
            box = bounds(s);
        }
        double v = props.Mass();
        if (!(v > 0.0)) {
            put(msg, len, "volume " + std::to_string(v) +
                              ": the solid is inside-out or empty");
            return INERTIA_CAD_INSIDE_OUT;
        }
        gp_Pnt g = props.CentreOfMass();
        gp_Mat m = props.MatrixOfInertia();
        out->volume = v;
        out->centroid[0] = g.X();
        out->centroid[1] = g.Y();
        out->centroid[2] = g.Z();
        for (int r = 0; r < 3; ++r) {
            for (int q = 0; q < 3; ++q) {
                out->inertia[3 * r + q] = m.Value(r + 1, q + 1);
            }
        }
        out->surface_area = surface.Mass();
        box.Get(out->bbox_min[0], out->bbox_min[1], out->bbox_min[2], out->bbox_max[0],
                out->bbox_max[1], out->bbox_max[2]);
        TopTools_IndexedMapOfShape faces, shells;
        TopExp::MapShapes(s, TopAbs_FACE, faces);
        TopExp::MapShapes(s, TopAbs_SHELL, shells);
        out->faces = static_cast<uint64_t>(faces.Extent());
        out->shells = static_cast<uint64_t>(shells.Extent());
        return INERTIA_CAD_OK;
    });
}

/// The volume solids `a` and `b` share (OpenCASCADE's boolean common), 0 when their
/// bounding boxes are apart.
int inertia_cad_common_volume(const void* cad, size_t a, size_t b, double* volume, char* msg,
                              size_t len) {
    const Cad* c = static_cast<const Cad*>(cad);
    if (c == nullptr || volume == nullptr || a >= c->solids.size() || b >= c->solids.size()) {
        put(msg, len, "bad argument");
        return INERTIA_CAD_ARGUMENT;
    }
    return guarded(msg, len, [&]() -> int {
        const TopoDS_Shape& x = c->solids[a].shape;
        const TopoDS_Shape& y = c->solids[b].shape;
        if (bounds(x).IsOut(bounds(y))) {
            *volume = 0.0;
            return INERTIA_CAD_OK;
        }
        BRepAlgoAPI_Common common(x, y);
        if (!common.IsDone() || common.HasErrors()) {
            put(msg, len, "OpenCASCADE's boolean common did not finish");
            return INERTIA_CAD_FAILED;
        }
        GProp_GProps props;
        BRepGProp::VolumeProperties(common.Shape(), props, 1e-9, Standard_True);
        *volume = props.Mass();
        return INERTIA_CAD_OK;
    });
}

/// Tessellates solid `k` with BRepMesh_IncrementalMesh at the absolute `deflection`
/// (angular deflection `angle` radians); `*nodes` and `*triangles` say how many to copy
/// with inertia_cad_mesh_copy. Nodes on edges shared by two faces are one node.
int inertia_cad_mesh(void* cad, size_t k, double deflection, double angle, size_t* nodes,
                     size_t* triangles, char* msg, size_t len) {
    Cad* c = static_cast<Cad*>(cad);
    if (c == nullptr || nodes == nullptr || triangles == nullptr || k >= c->solids.size() ||
        !(deflection > 0.0) || !(angle > 0.0)) {
        put(msg, len, "bad argument");
        return INERTIA_CAD_ARGUMENT;
    }
    return guarded(msg, len, [&]() -> int {
        // A copy, so that the solid's own triangulation (and the next deflection) starts
        // afresh.
        BRepBuilderAPI_Copy copy(c->solids[k].shape, Standard_True, Standard_False);
        TopoDS_Shape s = copy.Shape();
        BRepTools::Clean(s);
        BRepMesh_IncrementalMesh mesh(s, deflection, Standard_False, angle, Standard_False);
        if (!mesh.IsDone()) {
            put(msg, len, "OpenCASCADE's mesher did not finish");
            return INERTIA_CAD_FAILED;
        }
        c->nodes.clear();
        c->triangles.clear();
        // Faces meet along edges: a node on an edge is the same node in every face that
        // edge bounds, found by the edge's discretisation (its k-th point, shared by the
        // faces whatever the surfaces evaluate to there) or by the vertex at its ends.
        TopTools_IndexedMapOfShape edges, vertices;
        TopExp::MapShapes(s, TopAbs_EDGE, edges);
        TopExp::MapShapes(s, TopAbs_VERTEX, vertices);
        std::map<std::pair<int, int>, uint32_t> on_edge;
        std::map<int, uint32_t> at_vertex;
        auto fresh = [&](const gp_Pnt& p) {
            uint32_t n = static_cast<uint32_t>(c->nodes.size() / 3);
            c->nodes.push_back(p.X());
            c->nodes.push_back(p.Y());
            c->nodes.push_back(p.Z());
            return n;
        };
        const uint32_t none = UINT32_MAX;
        for (TopExp_Explorer e(s, TopAbs_FACE); e.More(); e.Next()) {
            const TopoDS_Face& f = TopoDS::Face(e.Current());
            TopLoc_Location loc;
            Handle(Poly_Triangulation) t = BRep_Tool::Triangulation(f, loc);
            if (t.IsNull()) {
                put(msg, len, "a face was left without triangles by OpenCASCADE's mesher");
                return INERTIA_CAD_FAILED;
            }
            gp_Trsf tr = loc.Transformation();
            std::vector<uint32_t> local(static_cast<size_t>(t->NbNodes()) + 1, none);
            for (TopExp_Explorer w(f, TopAbs_EDGE); w.More(); w.Next()) {
                const TopoDS_Edge& edge = TopoDS::Edge(w.Current());
                Handle(Poly_PolygonOnTriangulation) poly =
                    BRep_Tool::PolygonOnTriangulation(edge, t, loc);
                if (poly.IsNull()) {
                    continue;
                }
                TopoDS_Vertex first, last;
                TopExp::Vertices(TopoDS::Edge(edge.Oriented(TopAbs_FORWARD)), first, last);
                int ei = edges.FindIndex(edge);
                bool degenerate = BRep_Tool::Degenerated(edge);
                const TColStd_Array1OfInteger& nodes = poly->Nodes();
                int n = nodes.Length();
                for (int j = 0; j < n; ++j) {
                    Standard_Integer i = nodes(nodes.Lower() + j);
                    if (i < 1 || i > t->NbNodes() || local[i] != none) {
                        continue;
                    }
                    gp_Pnt p = t->Node(i).Transformed(tr);
                    const TopoDS_Vertex* v = nullptr;
                    if (degenerate || j == 0) {
                        v = &first;
                    } else if (j == n - 1) {
                        v = &last;
                    }
                    if (v != nullptr && !v->IsNull()) {
                        int vi = vertices.FindIndex(*v);
                        auto it = at_vertex.find(vi);
                        if (it == at_vertex.end()) {
                            it = at_vertex.emplace(vi, fresh(p)).first;
                        }
                        local[i] = it->second;
                    } else {
                        auto key = std::make_pair(ei, j);
                        auto it = on_edge.find(key);
                        if (it == on_edge.end()) {
                            it = on_edge.emplace(key, fresh(p)).first;
                        }
                        local[i] = it->second;
                    }
                }
            }
            for (Standard_Integer i = 1; i <= t->NbNodes(); ++i) {
                if (local[i] == none) {
                    local[i] = fresh(t->Node(i).Transformed(tr));
                }
            }
            bool reversed = f.Orientation() == TopAbs_REVERSED;
            for (Standard_Integer i = 1; i <= t->NbTriangles(); ++i) {
                Standard_Integer n1, n2, n3;
                t->Triangle(i).Get(n1, n2, n3);
                if (reversed) {
                    std::swap(n2, n3);
                }
                c->triangles.push_back(local[n1]);
                c->triangles.push_back(local[n2]);
                c->triangles.push_back(local[n3]);
            }
        }
        *nodes = c->nodes.size() / 3;
        *triangles = c->triangles.size() / 3;
        return INERTIA_CAD_OK;
    });
}

/// The largest tolerance of solid `k`'s vertices (at least its edges' and faces'): how far
/// apart the B-rep lets the ends of two faces' edges lie.
double inertia_cad_max_tolerance(const void* cad, size_t k) {
    const Cad* c = static_cast<const Cad*>(cad);
    if (c == nullptr || k >= c->solids.size()) {
        return 0.0;
    }
    try {
        return BRep_Tool::MaxTolerance(c->solids[k].shape, TopAbs_VERTEX);
    } catch (...) {
        return 0.0;
    }
}

/// Copies the last tessellation: 3 coordinates per node, 3 node indices per triangle.
int inertia_cad_mesh_copy(const void* cad, double* nodes, uint32_t* triangles) {
    const Cad* c = static_cast<const Cad*>(cad);
    if (c == nullptr || nodes == nullptr || triangles == nullptr) {
        return INERTIA_CAD_ARGUMENT;
    }
    std::memcpy(nodes, c->nodes.data(), c->nodes.size() * sizeof(double));
    std::memcpy(triangles, c->triangles.data(), c->triangles.size() * sizeof(uint32_t));
    return INERTIA_CAD_OK;
}

/// For the tests: solid `k`'s volume, centroid, inertia (9) and area, as BRepGProp's own
/// VolumeProperties and SurfaceProperties give them on one thread, to compare with
/// inertia_cad_properties, which integrates the faces on several.
int inertia_cad_reference_properties(const void* cad, size_t k, double eps, double area_eps,
                                     double* out, char* msg, size_t len) {
    const Cad* c = static_cast<const Cad*>(cad);
    if (c == nullptr || out == nullptr || k >= c->solids.size()) {
        put(msg, len, "bad argument");
        return INERTIA_CAD_ARGUMENT;
    }
    return guarded(msg, len, [&]() -> int {
        GProp_GProps props, surface;
        BRepGProp::VolumeProperties(c->solids[k].shape, props, eps, Standard_True);
        BRepGProp::SurfaceProperties(c->solids[k].shape, surface, area_eps, Standard_True);
        out[0] = props.Mass();
        gp_Pnt g = props.CentreOfMass();
        out[1] = g.X();
        out[2] = g.Y();
        out[3] = g.Z();
        gp_Mat m = props.MatrixOfInertia();
        for (int r = 0; r < 3; ++r) {
            for (int q = 0; q < 3; ++q) {
                out[4 + 3 * r + q] = m.Value(r + 1, q + 1);
            }
        }
        out[13] = surface.Mass();
        return INERTIA_CAD_OK;
    });
}

/// For the tests: every face of solid `k` integrated by `green::integrate` twice, its
/// inner integrals along u and then along v (other points, other sums), volume and area
/// terms about the solid's rough centre to `eps`. `*worst` is the largest difference of a
/// term between the two (divided by the solid's size to the term's degree), relative to
/// the sum over the faces of their volume (or area) terms' absolute values; `*faces` how
/// many faces were compared. Fails when a face on a B-spline or
/// Bézier surface (those the integrals use it for) is not integrated so.
int inertia_cad_green_directions(const void* cad, size_t k, double eps, double* worst,
                                 size_t* faces, char* msg, size_t len) {
    const Cad* c = static_cast<const Cad*>(cad);
    if (c == nullptr || worst == nullptr || faces == nullptr || k >= c->solids.size()) {
        put(msg, len, "bad argument");
        return INERTIA_CAD_ARGUMENT;
    }
    return guarded(msg, len, [&]() -> int {
        const TopoDS_Shape& s = c->solids[k].shape;
        gp_Pnt origin = rough_centre(s);
        // Terms of degree d in the coordinates are compared divided by size^d, so that
        // all ten are as large as the face's volume (or area) terms.
        Bnd_Box box = bounds(s);
        double size = std::sqrt(box.SquareExtent());
        double scale[10] = {1.0};
        for (int i = 1; i < 10; ++i) {
            scale[i] = i < 4 ? size : size * size;
        }
        *worst = 0.0;
        *faces = 0;
        for (int volume = 0; volume < 2; ++volume) {
            double largest = 0.0, total = 0.0;
            for (TopExp_Explorer f(s, TopAbs_FACE); f.More(); f.Next()) {
                const TopoDS_Face& face = TopoDS::Face(f.Current());
                green::Moments m[2];
                double error = 0.0;
                bool done = green::integrate(face, origin, volume == 1, eps, &m[0], &error, 0) &&
                            green::integrate(face, origin, volume == 1, eps, &m[1], &error, 1);
                if (!done) {
                    if (spline(face)) {
                        put(msg, len, "a spline face was not integrated by its boundary");
                        return INERTIA_CAD_FAILED;
                    }
                    continue;
                }
                for (int i = 0; i < 10; ++i) {
                    largest = std::max(largest, std::abs(m[0].m[i] - m[1].m[i]) / scale[i]);
                }
                total += std::abs(m[0].m[0]);
                *faces += volume;
            }
            if (total > 0.0) {
                *worst = std::max(*worst, largest / total);
            }
        }
        return INERTIA_CAD_OK;
    });
}

/// For the tests: a cylinder r 5, h 20 converted to B-splines, its side's periodic surface
/// given 12 knot spans and its knots listed from a third of a turn (the same surface, the
/// same curves: knots BRepGProp does not list inside the face's range), integrated face
/// by face about (1, 2, 3) to 1e-12 as BRepGProp integrates it (`out[0]`) and with each
/// face's knots listed over its range (`out[1]`): two volumes to compare with 500π.
int inertia_cad_test_listed_knots(double* out, char* msg, size_t len) {
    if (out == nullptr) {
        put(msg, len, "bad argument");
        return INERTIA_CAD_ARGUMENT;
    }
    return guarded(msg, len, [&]() -> int {
        TopoDS_Shape cylinder =
            BRepBuilderAPI_NurbsConvert(BRepPrimAPI_MakeCylinder(5, 20).Shape()).Shape();
        out[0] = out[1] = 0.0;
        for (TopExp_Explorer e(cylinder, TopAbs_FACE); e.More(); e.Next()) {
            TopoDS_Face face = TopoDS::Face(e.Current());
            TopLoc_Location loc;
            Handle(Geom_BSplineSurface) side =
                Handle(Geom_BSplineSurface)::DownCast(BRep_Tool::Surface(face, loc));
            if (!side.IsNull() && side->IsUClosed()) {
                Handle(Geom_BSplineSurface) turned =
                    Handle(Geom_BSplineSurface)::DownCast(side->Copy());
                if (!turned->IsUPeriodic()) {
                    turned->SetUPeriodic();
                }
                double first = turned->UKnot(1);
                double last = turned->UKnot(turned->NbUKnots());
                for (int i = 1; i < 12; ++i) {
                    if (i % 4 != 0) {
                        turned->InsertUKnot(first + (last - first) * i / 12, 1, 1e-12);
                    }
                }
                turned->SetUOrigin(5);
                face = on_surface(face, turned, loc);
            }
            for (int k = 0; k < 2; ++k) {
                TopoDS_Face f = k == 0 ? face : knots_from_range(face);
                BRepGProp_Face g;
                g.Load(f);
                BRepGProp_Domain d;
                d.Init(f);
                BRepGProp_Vinert v;
                v.SetLocation(gp_Pnt(1, 2, 3));
                v.Perform(g, d, 1e-12);
                out[k] += v.Mass();
            }
        }
        return INERTIA_CAD_OK;
    });
}

/// Writes a test solid to `path` as STEP (for the tests: closed forms to check against).
/// `kind`: 0 box 10×20×30 with its corner at (1, 2, 3); 1 cylinder r 5 h 20; 2 sphere
/// r 7; 3 torus R 10 r 2; 4 cone r 6 → 2, h 9; 5 box 40×30×10 minus a through hole r 5
/// at (20, 15); 6 an assembly of two boxes 10×20×30, one placed at the origin and one
/// turned 90° about z and moved by (100, 0, 0); 7 a box 1×2×3 in, written in inches;
/// 8 an open shell (a box with one face removed); 9 two boxes 10×20×30 overlapping by
/// 5×20×30; 10 the two boxes of 6 as one BREP file; 11 the box 10×20×30 at the origin
/// turned 30° about z; 12 a box with one face turned inside out, as BREP; 13 the box of 0
/// as IGES (BRep mode); 14 a box 10×20×30 "bracket" coloured (0.8, 0.2, 0.1) and made
/// of "aluminium 6061" of 2.7 g/cm³, through XCAF; 15 that box and one moved by 100 along
/// x ("block", "steel" of 7.85 g/cm³), two parts.
int inertia_cad_write_test(int kind, const char* path, char* msg, size_t len) {
    if (path == nullptr) {
        put(msg, len, "null path");
        return INERTIA_CAD_ARGUMENT;
    }
    return guarded(msg, len, [&]() -> int {
        quiet();
        std::lock_guard<std::mutex> lock(reading());
        // The shapes below are in millimetres; a read before may have left another unit.
        Interface_Static::SetCVal("xstep.cascade.unit", "MM");
        gp_Trsf turn;
        turn.SetRotation(gp_Ax1(gp_Pnt(0, 0, 0), gp_Dir(0, 0, 1)), M_PI / 2);
        gp_Trsf move;
        move.SetTranslation(gp_Vec(100, 0, 0));
        TopLoc_Location placed(move * turn);
        TopoDS_Shape shape;
        std::string unit = "MM";
        switch (kind) {
            case 0: shape = BRepPrimAPI_MakeBox(gp_Pnt(1, 2, 3), 10, 20, 30).Shape(); break;
            case 1: shape = BRepPrimAPI_MakeCylinder(5, 20).Shape(); break;
            case 2: shape = BRepPrimAPI_MakeSphere(7).Shape(); break;
            case 3: shape = BRepPrimAPI_MakeTorus(10, 2).Shape(); break;
            case 4: shape = BRepPrimAPI_MakeCone(6, 2, 9).Shape(); break;
            case 5: {
                TopoDS_Shape box = BRepPrimAPI_MakeBox(40, 30, 10).Shape();
                TopoDS_Shape hole =
                    BRepPrimAPI_MakeCylinder(gp_Ax2(gp_Pnt(20, 15, -1), gp_Dir(0, 0, 1)), 5, 12)
                        .Shape();
                BRepAlgoAPI_Cut cut(box, hole);
                shape = cut.Shape();
                break;
            }
            case 6: {
                Document document;
                Handle(TDocStd_Document) doc = document.doc;
                Handle(XCAFDoc_ShapeTool) tool = XCAFDoc_DocumentTool::ShapeTool(doc->Main());
                TDF_Label assembly = tool->NewShape();
                TDataStd_Name::Set(assembly, "pair");
                TDF_Label part = tool->AddShape(BRepPrimAPI_MakeBox(10, 20, 30).Shape(),
                                                Standard_False);
                TDataStd_Name::Set(part, "block");
                TDF_Label a = tool->AddComponent(assembly, part, TopLoc_Location());
                TDataStd_Name::Set(a, "left");
                TDF_Label b = tool->AddComponent(assembly, part, placed);
                TDataStd_Name::Set(b, "right");
                tool->UpdateAssemblies();
                STEPCAFControl_Writer w;
                w.SetNameMode(true);
                if (!w.Transfer(doc, STEPControl_AsIs) || w.Write(path) != IFSelect_RetDone) {
                    put(msg, len, "cannot write the assembly");
                    return INERTIA_CAD_FAILED;
                }
                return INERTIA_CAD_OK;
            }
            case 14: {
                // A box 10×20×30 named "bracket", coloured (0.8, 0.2, 0.1) and made of
                // "aluminium 6061" of 2.7 g/cm³, through XCAF.
                Document document;
                Handle(TDocStd_Document) doc = document.doc;
                Handle(XCAFDoc_ShapeTool) tool = XCAFDoc_DocumentTool::ShapeTool(doc->Main());
                TDF_Label part = tool->AddShape(BRepPrimAPI_MakeBox(10, 20, 30).Shape(),
                                                Standard_False);
                TDataStd_Name::Set(part, "bracket");
                XCAFDoc_DocumentTool::ColorTool(doc->Main())
                    ->SetColor(part, Quantity_Color(0.8, 0.2, 0.1, Quantity_TOC_sRGB),
                               XCAFDoc_ColorSurf);
                XCAFDoc_DocumentTool::MaterialTool(doc->Main())
                    ->SetMaterial(part, new TCollection_HAsciiString("aluminium 6061"),
                                  new TCollection_HAsciiString("wrought alloy"), 2.7,
                                  new TCollection_HAsciiString("density"),
                                  new TCollection_HAsciiString("POSITIVE_RATIO_MEASURE"));
                STEPCAFControl_Writer w;
                w.SetNameMode(true);
                w.SetColorMode(true);
                w.SetMaterialMode(true);
                if (!w.Transfer(doc, STEPControl_AsIs) || w.Write(path) != IFSelect_RetDone) {
                    put(msg, len, "cannot write the coloured part");
                    return INERTIA_CAD_FAILED;
                }
                return INERTIA_CAD_OK;
            }
            case 15: {
                // Two parts of different materials: "bracket", a box 10×20×30 at the origin
                // of "aluminium 6061" 2.7 g/cm³, and "block", the same box moved by 100
                // along x, of "steel" 7.85 g/cm³.
                Document document;
                Handle(TDocStd_Document) doc = document.doc;
                Handle(XCAFDoc_ShapeTool) tool = XCAFDoc_DocumentTool::ShapeTool(doc->Main());
                Handle(XCAFDoc_MaterialTool) materials =
                    XCAFDoc_DocumentTool::MaterialTool(doc->Main());
                gp_Trsf along;
                along.SetTranslation(gp_Vec(100, 0, 0));
                const char* names[] = {"bracket", "block"};
                const char* kinds[] = {"aluminium 6061", "steel"};
                const double densities[] = {2.7, 7.85};
                for (int k = 0; k < 2; ++k) {
                    TopoDS_Shape box = BRepPrimAPI_MakeBox(10, 20, 30).Shape();
                    if (k == 1) {
                        box = BRepBuilderAPI_Transform(box, along, Standard_True).Shape();
                    }
                    TDF_Label part = tool->AddShape(box, Standard_False);
                    TDataStd_Name::Set(part, names[k]);
                    materials->SetMaterial(part, new TCollection_HAsciiString(kinds[k]),
                                           new TCollection_HAsciiString(""), densities[k],
                                           new TCollection_HAsciiString("density"),
                                           new TCollection_HAsciiString("POSITIVE_RATIO_MEASURE"));
                }
                STEPCAFControl_Writer w;
                w.SetNameMode(true);
                w.SetMaterialMode(true);
                if (!w.Transfer(doc, STEPControl_AsIs) || w.Write(path) != IFSelect_RetDone) {
                    put(msg, len, "cannot write the two parts");
                    return INERTIA_CAD_FAILED;
                }
                return INERTIA_CAD_OK;
            }
            case 7:
                shape = BRepPrimAPI_MakeBox(25.4, 50.8, 76.2).Shape();
                unit = "INCH";
                break;
            case 8: {
                TopoDS_Shape box = BRepPrimAPI_MakeBox(10, 20, 30).Shape();
                TopoDS_Shell shell;
                BRep_Builder b;
                b.MakeShell(shell);
                int n = 0;
                for (TopExp_Explorer e(box, TopAbs_FACE); e.More(); e.Next()) {
                    if (n++ > 0) {
                        b.Add(shell, e.Current());
                    }
                }
                shell.Closed(Standard_False);
                shape = shell;
                break;
            }
            case 11: {
                gp_Trsf tilt;
                tilt.SetRotation(gp_Ax1(gp_Pnt(0, 0, 0), gp_Dir(0, 0, 1)), M_PI / 6);
                shape = BRepBuilderAPI_Transform(BRepPrimAPI_MakeBox(10, 20, 30).Shape(), tilt,
                                                 Standard_True)
                            .Shape();
                break;
            }
            case 12: {
                // A box whose top face is turned inside out: BRepCheck_Analyzer refuses it.
                TopoDS_Shape box = BRepPrimAPI_MakeBox(10, 20, 30).Shape();
                TopoDS_Shell shell;
                BRep_Builder b;
                b.MakeShell(shell);
                int n = 0;
                for (TopExp_Explorer e(box, TopAbs_FACE); e.More(); e.Next()) {
                    b.Add(shell, n++ == 5 ? e.Current().Reversed() : e.Current());
                }
                shell.Closed(Standard_True);
                TopoDS_Solid solid;
                b.MakeSolid(solid);
                b.Add(solid, shell);
                if (!BRepTools::Write(solid, path)) {
                    put(msg, len, "cannot write the BREP file");
                    return INERTIA_CAD_FAILED;
                }
                return INERTIA_CAD_OK;
            }
            case 13: {
                Interface_Static::SetIVal("write.iges.brep.mode", 1);
                IGESControl_Writer w("MM", 1);
                w.AddShape(BRepPrimAPI_MakeBox(gp_Pnt(1, 2, 3), 10, 20, 30).Shape());
                w.ComputeModel();
                if (!w.Write(path)) {
                    put(msg, len, "cannot write the IGES file");
                    return INERTIA_CAD_FAILED;
                }
                return INERTIA_CAD_OK;
            }
            case 9:
            case 10: {
                TopoDS_Compound both;
                BRep_Builder b;
                b.MakeCompound(both);
                b.Add(both, BRepPrimAPI_MakeBox(10, 20, 30).Shape());
                if (kind == 9) {
                    b.Add(both, BRepPrimAPI_MakeBox(gp_Pnt(5, 0, 0), 10, 20, 30).Shape());
                } else {
                    b.Add(both, BRepPrimAPI_MakeBox(10, 20, 30).Shape().Moved(placed));
                }
                shape = both;
                if (kind == 10) {
                    if (!BRepTools::Write(shape, path)) {
                        put(msg, len, "cannot write the BREP file");
                        return INERTIA_CAD_FAILED;
                    }
                    return INERTIA_CAD_OK;
                }
                break;
            }
            case 16: {
                // The torus of 3 as rational B-splines, moved far from the origin, as BREP
                // (every digit kept).
                gp_Trsf far;
                far.SetTranslation(gp_Vec(1e6, -2e6, 5e5));
                TopoDS_Shape torus =
                    BRepBuilderAPI_NurbsConvert(BRepPrimAPI_MakeTorus(10, 2).Shape()).Shape();
                if (!BRepTools::Write(BRepBuilderAPI_Transform(torus, far, Standard_True).Shape(),
                                      path)) {
                    put(msg, len, "cannot write the BREP file");
                    return INERTIA_CAD_FAILED;
                }
                return INERTIA_CAD_OK;
            }
            case 17:
                shape = BRepBuilderAPI_NurbsConvert(
                            BRepAlgoAPI_Cut(BRepPrimAPI_MakeBox(40, 30, 10).Shape(),
                                            BRepPrimAPI_MakeCylinder(
                                                gp_Ax2(gp_Pnt(20, 15, -1), gp_Dir(0, 0, 1)), 5, 12)
                                                .Shape())
                                .Shape())
                            .Shape();
                break;
            case 18:
                shape = BRepBuilderAPI_NurbsConvert(BRepPrimAPI_MakeSphere(7).Shape()).Shape();
                break;
            default:
                put(msg, len, "unknown test solid");
                return INERTIA_CAD_ARGUMENT;
        }
        Interface_Static::SetCVal("write.step.unit", unit.c_str());
        STEPControl_Writer w;
        IFSelect_ReturnStatus st = w.Transfer(shape, STEPControl_AsIs);
        Interface_Static::SetCVal("write.step.unit", "MM");
        if (st != IFSelect_RetDone || w.Write(path) != IFSelect_RetDone) {
            put(msg, len, "cannot write the STEP file");
            return INERTIA_CAD_FAILED;
        }
        return INERTIA_CAD_OK;
    });
}

}  // extern "C"
